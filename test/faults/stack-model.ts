/**
 * A minimal "engine" for provider-level fault tests: a stack's state as a map, and `up` / `refresh`
 * that call the Role provider's methods the way the engine does (every resource at once, so the
 * batcher coalesces them as it does in the dynamic-provider host). Deletes run only after every
 * create and update succeeded, as the engine deletes only after a successful program.
 */
import * as provider from "../../provider";
import type { RoleOutputs } from "../../provider/role/inputs";
import { inNewDeployment } from "../../provider/shared/deployment-ledger";

type Props = Record<string, unknown>;

export interface StateEntry {
  id: string;
  inputs: Props;
  outs: RoleOutputs;
  /** Kept from a partial create or update: the next `up` updates it even without a diff. */
  initErrors?: boolean;
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

/** One `pulumi up`: its own deployment (as one provider host serves one), creates and updates, then deletes. */
export function up(state: State, program: Record<string, Props>): Promise<RunResult> {
  return inNewDeployment(() => deploy(state, program));
}

async function deploy(state: State, program: Record<string, Props>): Promise<RunResult> {
  const errors: string[] = [];
  /** Replaced originals, deleted after the program as the engine does (create before delete). */
  const replaced: StateEntry[] = [];
  await Promise.all(
    Object.entries(program).map(async ([key, news]) => {
      const checked = await provider.check(state.get(key)?.inputs ?? {}, news);
      if (checked.failures.length) {
        errors.push(checked.failures.map((f) => f.reason).join("; "));
        return;
      }
      const old = state.get(key);
      const create = async () => {
        const r = await provider.create(checked.inputs);
        state.set(key, { id: r.id, inputs: checked.inputs, outs: r.outs });
      };
      try {
        if (!old) return await create();
        const d = await provider.diff(old.id, old.outs as unknown as Props, checked.inputs);
        if (!d.changes && !old.initErrors) return;
        if (d.replaces.length) {
          replaced.push(old);
          return await create();
        }
        const r = await provider.update(old.id, old.outs as unknown as Props, checked.inputs);
        state.set(key, { id: old.id, inputs: checked.inputs, outs: r.outs });
      } catch (error) {
        // A partial create or update: the engine keeps the resource with what the provider returned.
        const e = error as Error & InitError;
        if (e.id && e.properties)
          state.set(key, { id: e.id, inputs: checked.inputs, outs: e.properties, initErrors: true });
        errors.push(e.message);
      }
    }),
  );
  if (errors.length) return { ok: false, errors };
  const removed = [...state.entries()].filter(([key]) => !(key in program));
  await Promise.all(
    [...removed.map(([key, entry]) => ({ key, entry })), ...replaced.map((entry) => ({ key: undefined, entry }))].map(
      async ({ key, entry }) => {
        try {
          await provider.delete(entry.id, entry.outs as unknown as Props);
          if (key !== undefined) state.delete(key);
        } catch (error) {
          errors.push((error as Error).message);
        }
      },
    ),
  );
  return { ok: errors.length === 0, errors };
}

export function refresh(state: State): Promise<RunResult> {
  return inNewDeployment(() => refreshAll(state));
}

async function refreshAll(state: State): Promise<RunResult> {
  const errors: string[] = [];
  await Promise.all(
    [...state.entries()].map(async ([key, entry]) => {
      try {
        const r = await provider.read(entry.id, entry.outs as unknown as Props);
        if (!r.id) state.delete(key);
        else if (r.props) state.set(key, { ...entry, id: r.id, outs: r.props });
      } catch (error) {
        errors.push((error as Error).message);
      }
    }),
  );
  return { ok: errors.length === 0, errors };
}
