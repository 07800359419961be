/**
 * A minimal "engine" for provider-level fault tests: a stack's state as a map, and `up` / `refresh`
 * that call the Role provider's methods the way the engine does (every resource at once, so the
 * batcher coalesces them as it does in the dynamic-provider host). Deletes run only after every
 * create and update succeeded, as the engine deletes only after a successful program.
 */
import * as provider from "../../provider";
import type { RoleOutputs } from "../../provider";

type Props = Record<string, unknown>;

export interface StateEntry {
  id: string;
  inputs: Props;
  outs: RoleOutputs;
}
export type State = Map<string, StateEntry>;

export interface RunResult {
  ok: boolean;
  errors: string[];
}

/** A create that failed after the role existed carries its ID: the engine keeps it (partial create). */
interface InitError {
  id?: string;
  properties?: RoleOutputs;
}

export async function up(state: State, program: Record<string, Props>): Promise<RunResult> {
  const errors: string[] = [];
  await Promise.all(
    Object.entries(program).map(async ([key, news]) => {
      const checked = await provider.check(state.get(key)?.inputs ?? {}, news);
      if (checked.failures.length) {
        errors.push(checked.failures.map((f) => f.reason).join("; "));
        return;
      }
      const old = state.get(key);
      try {
        if (!old) {
          const r = await provider.create(checked.inputs);
          state.set(key, { id: r.id, inputs: checked.inputs, outs: r.outs });
          return;
        }
        const d = await provider.diff(old.id, old.outs as unknown as Props, checked.inputs);
        if (!d.changes) return;
        if (d.replaces.length) throw new Error("replacement is not part of these tests");
        const r = await provider.update(old.id, old.outs as unknown as Props, checked.inputs);
        state.set(key, { id: old.id, inputs: checked.inputs, outs: r.outs });
      } catch (error) {
        const e = error as Error & InitError;
        if (!old && e.id && e.properties) state.set(key, { id: e.id, inputs: checked.inputs, outs: e.properties });
        errors.push(e.message);
      }
    }),
  );
  if (errors.length) return { ok: false, errors };
  await Promise.all(
    [...state.entries()]
      .filter(([key]) => !(key in program))
      .map(async ([key, entry]) => {
        try {
          await provider.delete(entry.id, entry.outs as unknown as Props);
          state.delete(key);
        } catch (error) {
          errors.push((error as Error).message);
        }
      }),
  );
  return { ok: errors.length === 0, errors };
}

export async function refresh(state: State): Promise<RunResult> {
  const errors: string[] = [];
  await Promise.all(
    [...state.entries()].map(async ([key, entry]) => {
      try {
        const r = await provider.read(entry.id, entry.outs as unknown as Props);
        if (!r.id) state.delete(key);
        else if (r.props) state.set(key, { ...entry, outs: r.props });
      } catch (error) {
        errors.push((error as Error).message);
      }
    }),
  );
  return { ok: errors.length === 0, errors };
}
