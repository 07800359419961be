/**
 * Fault rules: scripted misbehaviour for testing clients (errors, lost replies, garbage replies,
 * latency). Rules are matched in the order they were added; the first match applies and uses up one of
 * its `times`.
 */
import { z } from "zod";
import type { ServerKind } from "./request-log";
import { EMULATOR_ERROR_CODES } from "./service-rules";

/** Body of `POST /_emulator/faults`. */
export const FaultRuleInput = z
  .object({
    /** HTTP method; any when absent. Case-insensitive. */
    method: z.string().min(1).optional(),
    /** Request path without query: exact, or a prefix when it ends with `*`. */
    path: z.string().min(1),
    /** Which listener; any when absent. */
    server: z.enum(["api", "presence", "direct", "auth"]).optional(),
    /**
     * - `status`: reply `status` with `{code:"fault_injected"}` (or `code`) without handling the request
     * - `drop-before`: destroy the connection without handling the request
     * - `drop-after`: handle the request (apply the change), then destroy the connection unanswered
     * - `malformed-json`: handle the request, then reply 200 with a truncated JSON body
     * - `wrong-shape`: handle the request, then reply 200 with well-formed JSON of the wrong shape
     * - `latency`: wait `latencyMs`, then handle the request normally
     * - `override`: handle the request, then merge `fields` into its reply when that is a JSON object
     *   with a 2xx status (e.g. a `/findvisitor` reply naming a hostile `directserver`), or into each
     *   object of a JSON array reply (e.g. a create reply that says `inUse: true`)
     */
    action: z.enum(["status", "drop-before", "drop-after", "malformed-json", "wrong-shape", "latency", "override"]),
    status: z.number().int().min(100).max(599).optional(),
    /** The body's `code` of a `status` fault, e.g. `group_not_found` (default `fault_injected`). */
    code: z.enum(EMULATOR_ERROR_CODES).optional(),
    /** `Retry-After` header value sent with a `status` fault. */
    retryAfter: z.string().min(1).optional(),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    /** Fields an `override` rule sets in the reply, replacing those of the same name. */
    fields: z.record(z.string(), z.unknown()).optional(),
    /** How many requests the rule applies to (default 1); `0` means every matching request until cleared. */
    times: z.number().int().min(0).optional(),
    /** How many matching requests pass untouched before the rule applies (default 0). */
    skip: z.number().int().min(0).optional(),
  })
  .strict()
  .refine((r) => r.action !== "status" || r.status !== undefined, {
    message: "status is required for action status",
    path: ["status"],
  })
  .refine((r) => r.action !== "latency" || r.latencyMs !== undefined, {
    message: "latencyMs is required for action latency",
    path: ["latencyMs"],
  })
  .refine((r) => r.action !== "override" || Object.keys(r.fields ?? {}).length > 0, {
    message: "fields (a non-empty object) is required for action override",
    path: ["fields"],
  });
export type FaultRuleInput = z.infer<typeof FaultRuleInput>;

/** A rule as stored and as listed by `GET /_emulator/faults`. */
export interface FaultRule extends FaultRuleInput {
  id: number;
  /** Matches left; `null` for a rule that applies until cleared. */
  remaining: number | null;
  /** How many requests the rule has applied to. */
  hits: number;
}

/** The active fault rules, in the order they were added. */
export class FaultRules {
  private rules: FaultRule[] = [];
  private nextId = 1;

  add(input: FaultRuleInput): FaultRule {
    const times = input.times ?? 1;
    const rule: FaultRule = { ...input, id: this.nextId++, remaining: times === 0 ? null : times, hits: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    return n;
  }

  /** Removes one rule; returns it as it stood (with its `hits`), or undefined when it is not active. */
  remove(id: number): FaultRule | undefined {
    const rule = this.rules.find((r) => r.id === id);
    this.rules = this.rules.filter((r) => r !== rule);
    return rule && { ...rule };
  }

  /** Finds the first rule matching the request and uses up one of its `times`. */
  take(server: ServerKind, method: string, pathname: string): FaultRule | undefined {
    const rule = this.rules.find(
      (r) =>
        (r.server === undefined || r.server === server) &&
        (r.method === undefined || r.method.toUpperCase() === method) &&
        (r.path.endsWith("*") ? pathname.startsWith(r.path.slice(0, -1)) : pathname === r.path),
    );
    if (!rule) return undefined;
    if (rule.skip) {
      rule.skip--;
      return undefined;
    }
    rule.hits++;
    if (rule.remaining !== null && --rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
    return { ...rule };
  }
}
