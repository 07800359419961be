/** Points the Role provider (the module the host loads) at a fresh emulator, through `configure`. */
import * as provider from "../../provider";
import { startHarness, type EmulatorHarness } from "../support/emulator";

export async function providerAgainstEmulator(): Promise<EmulatorHarness> {
  const h = await startHarness();
  const config: Record<string, string> = {
    "grouproles:baseUrl": h.emu.baseUrl,
    "grouproles:presenceUrl": h.emu.presenceUrl,
    "grouproles:accessToken": h.emu.token,
  };
  await provider.configure({ config: { get: (k: string) => config[k] } });
  return h;
}

export { provider };
