/** Points the Role provider (the module the host loads) at a fresh emulator, through `configure`. */
import * as provider from "../../provider";
import { startHarness, type EmulatorHarness } from "../support/emulator";

export async function providerAgainstEmulator(): Promise<EmulatorHarness> {
  const h = await startHarness();
  await pointProviderAt(h);
  return h;
}

/** (Re)configures the provider for `h`, e.g. after a test pointed it elsewhere. */
export async function pointProviderAt(h: EmulatorHarness): Promise<void> {
  const config: Record<string, string> = {
    "grouproles:baseUrl": h.emu.baseUrl,
    "grouproles:presenceUrl": h.emu.presenceUrl,
    "grouproles:accessToken": h.emu.token,
  };
  await provider.configure({ config: { get: (k: string) => config[k] } });
}

export { provider };
