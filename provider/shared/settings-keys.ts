/**
 * Setting names the service documents (spec appendix A). The list is open (new features add keys), so
 * unknown keys pass; a key that is a near miss of a known one is almost certainly a typo and is refused.
 */
export const KNOWN_SETTINGS = [
  "editAddress",
  "joinCobrowseSessions",
  "startScreenShareSessions",
  "joinCustomerScreenShareSessions",
  "viewVideo",
  "oneWayAgentVideo",
  "multiParticipantVideo",
  "enableAgentVideoBackgroundEffects",
  "inviteGuest",
  "remoteAssist",
  "remoteAssistSelectiveEditing",
  "visitorDocumentShare",
  "agentDownloadDocumentShare",
  "agentDocumentShare",
  "visitorDownloadDocumentShare",
  "navigationAssist",
  "escalateToShow",
  "showEntireScreen",
  "showWindow",
  "restrictScreenShare",
  "shareSingleTab",
  "escalateToView",
  "reportProblem",
  "screenReaderGesturing",
  "agentAccessibilty", // sic: the service spells it so
  "showScreen",
  "guestRemoteControl",
  "guestAnnotation",
  "guestShowScreen",
  "viewAGuestsScreen",
  "agentRemoteControl",
  "agentAnnotation",
  "inviteGuestShareVideo",
  "keylessSessions",
  "dataCapture",
] as const;

/** A setting name the service documents: the keys `RoleSettings` (sdk/settings.ts) types. */
export type KnownSettingName = (typeof KNOWN_SETTINGS)[number];

const known = new Set<string>(KNOWN_SETTINGS);

/** Levenshtein distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The known key that `key` is probably a typo of, or undefined when `key` is known or not close to any:
 * same letters in another case, or at most 2 edits away (1 for short keys).
 */
export function suggestSetting(key: string): string | undefined {
  if (known.has(key)) return undefined;
  const lower = key.toLowerCase();
  const sameLetters = KNOWN_SETTINGS.find((k) => k.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  const max = key.length <= 6 ? 1 : 2;
  let best: { key: string; d: number } | undefined;
  for (const k of KNOWN_SETTINGS) {
    const d = editDistance(lower, k.toLowerCase(), max);
    if (d <= max && (!best || d < best.d)) best = { key: k, d };
  }
  return best?.key;
}
