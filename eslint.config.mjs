// ESLint (flat config) for the site's own JavaScript: site/assets/, run by `nox -s check`.
// The play page and its widgets are ES modules; the story map, the theme, the UI strings and
// the decoding worker are classic scripts. Vendored files (assets/vendor/, copied at build
// time) are not ours and are not linted.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["site/assets/vendor/**", "build/**", "node_modules/**"] },
  js.configs.recommended,
  {
    files: ["site/assets/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // an unused argument documents a callback's shape; unused variables are mistakes
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
  {
    files: [
      "site/assets/storymap.js",
      "site/assets/theme.js",
      "site/assets/ui-fr.js",
    ],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["site/assets/unpack-worker.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.worker } },
  },
];
