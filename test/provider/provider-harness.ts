/** Points the Role provider (the module the host loads) at a fresh emulator, through `configure`. */
import * as provider from "../../provider";
import { resetDeploymentLedger } from "../../provider/deployment-ledger";
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
