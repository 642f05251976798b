// French UI strings of the play and chronicle pages (play.js, widgets/*.js, chronicle.js).
// A second language adds a sibling file with the same keys and loads it instead.
// Texts that come from Python (screens, logs, labels of choices) are not here: each game keeps
// them in its own engine/<game>/text_fr.py.
window.GB_UI = Object.freeze({
  label: (text) => `${text} : `,

  // loading
  loadingPython: "Chargement de l'interprète Python (première visite : quelques secondes)…",
  loadingEngine: "Chargement du moteur de jeu…",
  loadingCampaign: "Chargement du jeu…",
  ready: "Prêt.",
  bootFailed: (message) => `Le jeu n'a pas pu démarrer : ${message}`,
  packedUnreachable: (file) => `le fichier « ${file} » n'a pas pu être téléchargé ; vérifiez la connexion et rechargez la page.`,
  packedDamaged: (file) => `le fichier « ${file} » est arrivé abîmé ou incomplet ; rechargez la page (si cela recommence, le site est à republier).`,

  // saves
  autosaveFailed: (message) => `La sauvegarde automatique a échoué : ${message}`,
  importRefused: (error) => `Import refusé : ${error}`,
  imported: "Partie importée.",
  saveUnreadable: (error) => `Reprise impossible : ${error}`,
  exportSave: "Exporter la sauvegarde",
  importSave: "Importer une sauvegarde : ",
  slot: (s) => `Emplacement ${s}`,
  slots: "Vos trois emplacements de sauvegarde",
  slotFree: "libre",
  slotWhat: (title, progress, date) => [title, progress || "partie en cours", date ? `enregistrée le ${date}` : ""].filter(Boolean).join(" — "),
  slotEmpty: (s) => `Emplacement ${s} — libre`,
  slotBusy: (s, progress, date) => `Emplacement ${s} — ${progress || "partie en cours"}${date ? ` (${date})` : ""} : sera remplacée`,
  saveSlot: "Sauvegarder une nouvelle partie dans : ",
  resumeTitle: "Votre partie en cours",
  resume: "Reprendre la partie",
  resumeSlot: (s) => `Reprendre l'emplacement ${s}`,
  resumeWhat: (title, progress, date) => `${title}${progress ? ` — ${progress}` : ""}${date ? `, enregistrée le ${date}` : ""}.`,
  unreadableFile: "ce fichier n'est pas une sauvegarde lisible (pas en UTF-8).",
  fileTooBig: (size, limit) =>
    `ce fichier est trop volumineux pour être une sauvegarde (${Math.ceil(size / 1e6)} Mo ; au plus ${limit / 1e6} Mo).`,

  // setup
  newGame: "Nouvelle partie",
  quickStart: "Démarrage rapide",
  startFrom: (node) => `Partie pour les auteurs : elle commencera à « ${node} », dans un état où le chemin jusque-là a été parcouru.`,
  quickStartHelp: (n, cooperative) => n < 2
    ? "Une partie en solitaire, face au jeu."
    : cooperative
      ? `Vous et ${n - 1} coéquipier${n > 2 ? "s" : ""} joué${n > 2 ? "s" : ""} par l'ordinateur, ensemble face au jeu.`
      : `Vous contre ${n - 1} adversaire${n > 2 ? "s" : ""} joué${n > 2 ? "s" : ""} par l'ordinateur.`,
  customGame: "Partie personnalisée",
  seats: "Nombre de places",
  seatLegend: (n) => `Place ${n}`,
  seatName: "Nom",
  who: "Joué par",
  human: "une personne",
  computer: "l'ordinateur",
  persona: "Caractère",
  seed: "Numéro de partie",
  seedHelp: "le même numéro redonne la même partie (mêmes cartes, mêmes dés)",
  begin: "Commencer",
  formLoading: "Le formulaire s'affiche dès que le jeu est chargé…",
  setupRefused: (error) => `Impossible de commencer : ${error}`,

  // playing
  handoffTitle: (who) => `Passez l'appareil à ${who}`,
  handoffText: "Les autres joueurs détournent les yeux : ses secrets vont s'afficher.",
  iAm: (who) => `C'est moi, ${who}`,
  recap: "Ce qui vient de se passer",
  choices: "Vos choix",
  yourThings: "Votre jeu",
  board: "La table",
  more: (n) => `${n} autre${n > 1 ? "s" : ""} possibilité${n > 1 ? "s" : ""}`,
  confirm: "Confirmer",
  cancel: "Annuler",
  keyHint: (n) => `touche ${n}`,
  stepperLess: "moins",
  stepperMore: "plus",
  gameOver: "La partie est terminée.",
  nextGame: "Partie suivante de la campagne",
  playLink: (label) => label,
  undo: "Annuler la dernière action",
  menu: "Menu",
  log: "Journal",
  notice: (text) => text,
  faceDown: "carte face cachée",
  value: (v) => `valeur ${v}`,
  dieShown: (face, shown) => `face ${face}, compte pour ${shown}`,
  die: (sides, face) => `dé à ${sides} faces : ${face}`,
  you: " (vous)",
  out: " (hors jeu)",
  current: "▶ ",
  legend: "Légende",
  table: "Tableau",
  map: "Carte",
  carry: "Pour la suite",
  points: (n) => `${n} point${Math.abs(n) > 1 ? "s" : ""}`,
  rank: (n) => (n === 1 ? "1er" : `${n}e`),

  // chronicle page
  chronSlot: (slot) => `Sauvegarde : emplacement ${slot}.`,
  chronEmpty: "La chronique de votre campagne s'affiche ici dès que vous avez joué sur ce navigateur.",
});
