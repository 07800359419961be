#!/usr/bin/env node
/**
 * `npm run house`: figures of the code's house (issue 55) as tables: the coordination code between
 * resources (files, lines, exports), the ledger's operations (public methods of its parts) and where
 * `deploymentLedger()` is called, the longest functions of provider/, and product files over 300 lines.
 * Read with the TypeScript compiler's parser; `--at REV` reads a commit instead of the working tree.
 */
const { execFileSync } = require("node:child_process");
const { readFileSync, readdirSync } = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const root = path.resolve(__dirname, "..");
const at = process.argv.includes("--at") ? process.argv[process.argv.indexOf("--at") + 1] : undefined;
const files = at
  ? execFileSync("git", ["ls-tree", "-r", "--name-only", at], { cwd: root, encoding: "utf8" }).split("\n")
  : readdirSync(root, { recursive: true }).map(String);
const read = (f) =>
  at
    ? execFileSync("git", ["show", `${at}:${f}`], { cwd: root, encoding: "utf8" })
    : readFileSync(path.join(root, f), "utf8");
const PRODUCT = ["client/", "config/", "provider/", "sdk/", "emulator/"];
const product = files.filter(
  (f) =>
    PRODUCT.some((p) => f.startsWith(p)) &&
    f.endsWith(".ts") &&
    !f.endsWith(".d.ts") &&
    !f.startsWith("sdk/go/") &&
    !f.startsWith("sdk/python/"),
);
const source = (f) => ts.createSourceFile(f, read(f), ts.ScriptTarget.Latest, true);
const lines = (f) => read(f).split("\n").length - (read(f).endsWith("\n") ? 1 : 0);

/** The ledger and its parts, the order rules, the program's structure, the protocol around each call. */
const COORDINATION = [
  "provider/shared/deployment-ledger.ts",
  ...[
    "declarations",
    "deletions",
    "exclusives",
    "name-rules",
    "registrations",
    "role-creates",
    "run-state",
    "created-ids",
  ].map((p) => `provider/shared/${p}.ts`),
  "provider/shared/registration-order.ts",
  "provider/shared/structure.ts",
  "provider/shared/resource-protocol.ts",
  "provider/shared/intent.ts",
  "provider/shared/group-view.ts",
  "provider/role/declaration.ts",
  "provider/group-roles/declaration.ts",
].filter((f) => product.includes(f));
/** The resources' Check, Diff and step entry points, which the coordination serves. */
const RESOURCE_ENTRIES = [
  "provider/role/provider.ts",
  "provider/group-roles/provider.ts",
  "provider/group-roles/diff.ts",
];
/** Calls into the ledger's parts and the order rules, written in a file. */
const coordinationCalls = (f) =>
  (
    read(f).match(
      /ledger\.[a-zA-Z.]+\(|\b(lateKeep|lateFreeing|lateDeclare|lateTakeover|unorderedTakeover|absentTaker|releasedName)\(/g,
    ) ?? []
  ).length;

function exportsOf(file) {
  const sf = source(file);
  return sf.statements.filter(
    (s) => ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  ).length;
}

/** Public methods and getters of the classes the ledger holds as parts. */
function ledgerOperations() {
  const ledger = source("provider/shared/deployment-ledger.ts");
  const parts = new Set();
  ledger.forEachChild(function visit(n) {
    if (ts.isPropertyDeclaration(n) && n.initializer && ts.isNewExpression(n.initializer))
      parts.add(n.initializer.expression.getText());
    n.forEachChild(visit);
  });
  let count = 0;
  for (const f of COORDINATION) {
    source(f).forEachChild(function visit(n) {
      if (ts.isClassDeclaration(n) && n.name && parts.has(n.name.text)) {
        for (const m of n.members) {
          const isPrivate = ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword);
          if (!isPrivate && (ts.isMethodDeclaration(m) || ts.isGetAccessor(m))) count++;
        }
      }
    });
  }
  return { parts: parts.size, count };
}

/** The ledger's own files: the ledger, its parts, the rules over them, the view and the intent that writes them. */
const LEDGER_FILES = new Set(
  ["deployment-ledger", "declarations", "role-creates", "exclusives", "name-rules", "group-view", "intent"].map(
    (f) => `provider/shared/${f}.ts`,
  ),
);
/** The classes of the ledger's surface: the ledger, its parts and its views. */
const LEDGER_CLASSES = new Set([
  "DeploymentLedger",
  "Declarations",
  "Releases",
  "Wants",
  "Creates",
  "Exclusives",
  "NameRules",
  "Registrations",
  "RunState",
  "GroupView",
  "RegistrationView",
]);

/**
 * What product code outside the ledger's files uses of it, found by the type checker (a ledger under any
 * name): the distinct operations (`Class.member`, a method or getter) and the sites that call them.
 */
function ledgerReach() {
  const options = { strict: true, noEmit: true, esModuleInterop: true, skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  if (at) {
    const inTree = (f) => !path.relative(root, f).startsWith("..") && !f.includes("node_modules");
    const exists = (f) => product.includes(path.relative(root, f)) || files.includes(path.relative(root, f));
    const { fileExists, readFile, getSourceFile } = host;
    host.fileExists = (f) => (inTree(f) ? exists(f) : fileExists(f));
    host.readFile = (f) => (inTree(f) ? (exists(f) ? read(path.relative(root, f)) : undefined) : readFile(f));
    host.getSourceFile = (f, lang, ...rest) =>
      inTree(f)
        ? exists(f)
          ? ts.createSourceFile(f, read(path.relative(root, f)), lang)
          : undefined
        : getSourceFile(f, lang, ...rest);
  }
  const entries = ["provider/index.ts", "provider/group-roles/index.ts", "provider/plugin/main.ts", "sdk/index.ts"];
  const program = ts.createProgram(
    entries.map((f) => path.join(root, f)),
    options,
    host,
  );
  const checker = program.getTypeChecker();
  const operations = new Set();
  let sites = 0;
  /** Calls straight into the parts that hold the records of roles (not through a view, an intent or a note). */
  let recordSites = 0;
  const RECORD_CLASSES = new Set(["Declarations", "Releases", "Wants", "Creates", "Exclusives", "NameRules"]);
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(root, sf.fileName);
    if (file.startsWith("..") || file.includes("node_modules") || LEDGER_FILES.has(file)) continue;
    sf.forEachChild(function visit(node) {
      if (ts.isPropertyAccessExpression(node)) {
        // The class that declares the member: a view's inherited read counts once.
        const declaration = checker
          .getSymbolAtLocation(node.name)
          ?.declarations?.find((d) => ts.isMethodDeclaration(d) || ts.isGetAccessor(d));
        const owner =
          declaration && ts.isClassDeclaration(declaration.parent) ? declaration.parent.name?.text : undefined;
        if (owner && LEDGER_CLASSES.has(owner)) {
          operations.add(`${owner}.${node.name.text}`);
          sites++;
          if (RECORD_CLASSES.has(owner)) recordSites++;
        }
      }
      node.forEachChild(visit);
    });
  }
  if (process.argv.includes("--list")) console.error([...operations].sort().join("\n"));
  return { operations: operations.size, sites, recordSites };
}

function longestFunctions(n) {
  const found = [];
  for (const f of product.filter((x) => x.startsWith("provider/"))) {
    const sf = source(f);
    sf.forEachChild(function visit(node) {
      if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.body) {
        const from = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        const to = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
        found.push({ where: `${f}:${from}`, name: node.name?.getText() ?? "(anonymous)", lines: to - from + 1 });
      }
      node.forEachChild(visit);
    });
  }
  return found.sort((a, b) => b.lines - a.lines).slice(0, n);
}

const calls = product
  .map((f) => [f, (read(f).match(/deploymentLedger\(\)/g) ?? []).length])
  .filter(([f, c]) => c > 0 && f !== "provider/shared/deployment-ledger.ts");
const ops = ledgerOperations();
const reach = ledgerReach();
console.log(`house figures${at ? ` at ${at}` : " of the working tree"}\n`);
console.log("| coordination file | lines | exports |\n| --- | ---: | ---: |");
for (const f of COORDINATION) console.log(`| ${f} | ${lines(f)} | ${exportsOf(f)} |`);
console.log(
  `| total | ${COORDINATION.reduce((n, f) => n + lines(f), 0)} | ${COORDINATION.reduce((n, f) => n + exportsOf(f), 0)} |\n`,
);
console.log(
  `ledger: ${ops.parts} parts, ${ops.count} public operations of its parts; deploymentLedger() called at ${calls.reduce((n, [, c]) => n + c, 0)} sites in ${calls.length} files`,
);
console.log(
  `outside the ledger's files (${[...LEDGER_FILES].map((f) => path.basename(f, ".ts")).join(", ")}), product code uses ${reach.operations} of its operations (parts, views and the ledger's own) at ${reach.sites} call sites, ${reach.recordSites} of them straight into the parts that hold the records of roles\n`,
);
console.log("| resource entry file | lines | ledger and order-rule calls |\n| --- | ---: | ---: |");
for (const f of RESOURCE_ENTRIES) console.log(`| ${f} | ${lines(f)} | ${coordinationCalls(f)} |`);
console.log();
console.log("| longest provider functions | lines |\n| --- | ---: |");
for (const fn of longestFunctions(8)) console.log(`| ${fn.name} (${fn.where}) | ${fn.lines} |`);
const big = product.map((f) => [f, lines(f)]).filter(([, l]) => l > 300);
console.log(`\nproduct files over 300 lines: ${big.length ? big.map(([f, l]) => `${f} (${l})`).join(", ") : "none"}`);
