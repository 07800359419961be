/**
 * The deployment ledger's records of roles are read through a view and written through an intent or a
 * step's note (issue 55): outside the ledger's own files, no product code reaches into its parts
 * (`ledger.releases.of(...)`, `deploymentLedger().creates.claim(...)`). Found by the type checker, so a
 * ledger held under any name counts.
 */
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
/** The parts that hold what registrations declare and steps did (../../provider/shared/deployment-ledger). */
const RECORD_PARTS = new Set(["creates", "declarations", "releases", "wants", "names", "exclusives"]);
/** The ledger itself, its parts, the rules over them, the view, and the intent that writes them. */
const LEDGER_FILES = new Set(
  ["deployment-ledger", "declarations", "role-creates", "exclusives", "name-rules", "group-view", "intent"].map(
    (f) => `provider/shared/${f}.ts`,
  ),
);

/** `file:line ledger.part` for each access to a record part of a DeploymentLedger in product code outside LEDGER_FILES. */
function reachesIntoParts(entries: string[]): string[] {
  const program = ts.createProgram(entries, { strict: true, noEmit: true, esModuleInterop: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(root, sf.fileName);
    if (file.startsWith("..") || file.includes("node_modules") || LEDGER_FILES.has(file)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && RECORD_PARTS.has(node.name.text)) {
        const owner = checker.getTypeAtLocation(node.expression).getSymbol()?.getName();
        if (owner === "DeploymentLedger") {
          const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          found.push(`${file}:${line} ${node.getText()}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe("the deployment ledger's records", () => {
  const entries = ["provider/index.ts", "provider/group-roles/index.ts", "provider/plugin/main.ts", "sdk/index.ts"].map(
    (f) => path.join(root, f),
  );

  it("are reached into by no product file outside the ledger's own (reads go through view(), writes through record or note*)", () => {
    expect(reachesIntoParts(entries)).toEqual([]);
  }, 60_000);
});
