/** Points the Role provider (the module the host loads) at a fresh emulator, through `configure`. */
import { afterAll, beforeAll, beforeEach } from "vitest";
import * as provider from "../../provider";
import { resetDeploymentLedger } from "../../provider/shared/deployment-ledger";
import { startHarness, type EmulatorHarness } from "../support/emulator";

export async function providerAgainstEmulator(extraConfig: Record<string, string> = {}): Promise<EmulatorHarness> {
  const h = await startHarness();
  await pointProviderAt(h, extraConfig);
  return h;
}

/** (Re)configures the provider for `h`, e.g. after a test pointed it elsewhere. */
export async function pointProviderAt(h: EmulatorHarness, extraConfig: Record<string, string> = {}): Promise<void> {
  const config: Record<string, string> = {
    "grouproles:baseUrl": h.emu.baseUrl,
    "grouproles:presenceUrl": h.emu.presenceUrl,
    "grouproles:accessToken": h.emu.token,
    ...extraConfig,
  };
  await provider.configure({ config: { get: (k: string) => config[k] } });
}

export { provider };

/**
 * Starts a new "deployment": an empty service and a fresh deployment ledger. A provider host serves one
 * deployment, but these suites call the provider for many in one process.
 */
export async function newDeployment(h: EmulatorHarness): Promise<void> {
  resetDeploymentLedger();
  await h.admin("POST", "/reset");
}

/**
 * The preamble of a provider suite: an emulator the provider is configured against (before all
 * tests), closed after all, and a new deployment (empty service, fresh ledger) before each test. The
 * harness is returned as a stand-in that forwards to the real one once it has started.
 */
export function providerSuite(extraConfig: Record<string, string> = {}): EmulatorHarness {
  let harness: EmulatorHarness | undefined;
  beforeAll(async () => {
    harness = await providerAgainstEmulator(extraConfig);
  });
  afterAll(() => harness?.close());
  beforeEach(() => newDeployment(harness as EmulatorHarness));
  return new Proxy({} as EmulatorHarness, {
    get: (_target, key) => {
      if (!harness) throw new Error("the provider suite's emulator is not started yet (use it inside tests and hooks)");
      return harness[key as keyof EmulatorHarness];
    },
  });
}
