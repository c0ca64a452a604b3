// Copies the non-TypeScript files the compiled package needs at run time into dist/.
const fs = require("node:fs");
const path = require("node:path");
const root = path.join(__dirname, "..");
const assets = ["emulator/reference.json", "emulator/reference-newer.json"];
for (const rel of assets) {
  const dest = path.join(root, "dist", rel);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.copyFileSync(path.join(root, rel), dest);
}
