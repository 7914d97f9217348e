// Copies the memory browser's static files (HTML, CSS, icons) next to its compiled modules in
// dist/; `tsc -p shells/memsvc/ui/tsconfig.json` has emitted the JavaScript already.
import { cpSync } from "node:fs";

cpSync("shells/memsvc/ui", "dist/shells/memsvc/ui", {
  recursive: true,
  filter: (source) => !/\.(ts|json)$/.test(source),
});
