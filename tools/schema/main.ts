/**
 * `npm run schema`: writes what is made from the table of a role's fields (client/role-fields.ts):
 * schema.json's role fields, sdk/role-fields.ts and the field rows of docs/role.md and
 * docs/group-roles.md (./role-fields-out). Prints each file it changed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { roleFieldOutputs } from "./role-fields-out";

const root = path.resolve(__dirname, "../../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
let changed = 0;
for (const { file, text } of roleFieldOutputs(read)) {
  let before: string | undefined;
  try {
    before = read(file);
  } catch {
    before = undefined;
  }
  if (before === text) continue;
  writeFileSync(path.join(root, file), text);
  console.log(`wrote ${file}`);
  changed++;
}
console.log(changed ? `${changed} file(s) written` : "every file is up to date");
