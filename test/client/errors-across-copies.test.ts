/**
 * `instanceof` of every exported error class holds for errors made by another copy of the package
 * (a program's copy and a plugin's, two versions in one tree), and only along the class chain.
 * Two copies: the built dist/ and a copy of it elsewhere, each loaded by its own path.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
mkdirSync(path.join(root, ".tmp"), { recursive: true });
// Under the checkout, so that the copy resolves undici and zod from the same node_modules.
const copy = mkdtempSync(path.join(root, ".tmp", "second-copy-"));
cpSync(path.join(root, "dist"), copy, { recursive: true });
afterAll(() => rmSync(copy, { recursive: true, force: true }));

type Module = Record<string, unknown>;
/** Constructor arguments of the classes that do not take (message, options). */
const ARGS: Record<string, unknown[]> = {
  TimeoutError: ["reply", 5, {}],
  ConnectTimeoutError: [5, {}],
  HeadersTimeoutError: [5, {}],
  BodyTimeoutError: [5, {}],
  DeadlineExceededError: [5, { method: "GET", path: "/x" }, { attempts: 1, elapsedMs: 5 }],
  ReplyTooLargeError: [5, { method: "GET", path: "/x" }],
  ConnectionError: ["dropped", true, {}],
  UnexpectedReplyError: ["odd reply", undefined, {}],
  VisitorNotConnectedError: [42, "v-1", {}],
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (dir: string, file: string) => require(path.join(dir, file)) as Module;
const errorClasses = (m: Module) =>
  Object.entries(m).filter(([name, v]) => typeof v === "function" && name.endsWith("Error")) as Array<
    [string, new (...args: unknown[]) => Error]
  >;

describe("error classes across two copies of the package", () => {
  const pairs = [
    ["client", "client/index.js"],
    ["provider errors", "provider/shared/errors.js"],
  ] as const;

  for (const [what, file] of pairs) {
    it(`${what}: instanceof holds across copies, along the class chain only`, () => {
      const mine = load(path.join(root, "dist"), file);
      const theirs = load(copy, file);
      const classes = errorClasses(mine);
      expect(classes.length).toBeGreaterThan(1);
      expect(theirs[classes[0]![0]]).not.toBe(classes[0]![1]); // really two copies
      for (const [made, TheirClass] of errorClasses(theirs)) {
        const error = new TheirClass(...(ARGS[made] ?? ["made by the other copy", {}]));
        const rephrased = (error as Error & { rephrase?: (m: string) => Error }).rephrase?.("with context") ?? error;
        for (const [asked, MyClass] of classes) {
          // What the other copy's own prototypes say is the truth to match.
          const expected = Object.prototype.isPrototypeOf.call(
            (theirs[asked] as { prototype: object }).prototype,
            error,
          );
          expect(error instanceof MyClass, `${made} instanceof ${asked}`).toBe(expected);
          expect(rephrased instanceof MyClass, `rephrased ${made} instanceof ${asked}`).toBe(expected);
        }
      }
      for (const [, MyClass] of classes) expect(new Error("plain") instanceof MyClass).toBe(false);
    });
  }
});
