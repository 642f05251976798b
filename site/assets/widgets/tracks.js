import { h, titled } from "./dom.js";

// Tracks drawn as tracks: one slot per value, the marker on its slot, marks and zones.
export default function tracks(w) {
  const list = h("div", { class: "gb-tracks" });
  for (const t of w.tracks || []) {
    const slots = h("ol", { class: "gb-track", "aria-label": `${t.label} : ${t.value}` });
    for (let v = t.min; v <= t.max; v++) {
      const mark = (t.marks || []).find((m) => m.at === v);
      const zone = (t.zones || []).find((z) => v >= z.from && v <= z.to);
      const cls = ["gb-slot"];
      if (v === t.value) cls.push("gb-slot-here");
      if (zone) cls.push(`gb-zone-${zone.tone || "note"}`);
      const li = h("li", { class: cls.join(" "), title: mark ? mark.label : (zone ? zone.label : null) },
        h("span", { class: "gb-slot-n", text: String(v) }));
      if (v === t.value) li.append(h("span", { class: "gb-marker", text: t.direction === "up" ? "▲" : t.direction === "down" ? "▼" : "●" }));
      slots.append(li);
    }
    const row = h("div", { class: "gb-track-row" },
      h("span", { class: "gb-track-label", text: t.label }),
      h("span", { class: "gb-track-value", text: String(t.value) + (t.direction === "up" ? " ↑" : t.direction === "down" ? " ↓" : "") }),
      slots);
    if ((t.marks || []).length) row.append(h("span", { class: "gb-track-marks", text: t.marks.map((m) => `${m.label} (${m.at})`).join(", ") }));
    if (t.note) row.append(h("span", { class: "gb-note", text: t.note }));
    list.append(row);
  }
  return titled(w, "tracks", list);
}
