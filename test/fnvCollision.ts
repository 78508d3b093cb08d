// Finds a base URL whose environment id under the OLD scheme (32-bit FNV-1a of label and URL,
// `legacySettingsEnvironmentId`) equals that of another URL with the same label: the attack
// issue 14 describes. FNV-1a can be run backwards (xor, then multiply by an odd prime, which
// has an inverse modulo 2^32), so a meet in the middle over a few path characters finds one
// in well under a second. Bounded: at most 62^3 forward and 62^3 backward steps.
// The old id is computed here on its own (the unit suite checks it equals the extension's), so
// the integration suite needs nothing from src but types.

const PRIME = 0x01000193;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function inverse(odd: number): number {
  // Newton's iteration for the inverse modulo 2^32: each step doubles the correct bits.
  let x = odd;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(odd, x)) >>> 0;
  return x >>> 0;
}
const PRIME_INVERSE = inverse(PRIME);

function forward(hash: number, text: string): number {
  let h = hash;
  for (const char of text) h = Math.imul(h ^ (char.codePointAt(0) ?? 0), PRIME) >>> 0;
  return h;
}

function backward(hash: number, text: string): number {
  let h = hash;
  for (const char of Array.from(text).reverse()) h = (Math.imul(h, PRIME_INVERSE) ^ (char.codePointAt(0) ?? 0)) >>> 0;
  return h;
}

/** The id an environment from settings had under the old scheme: `s-` and FNV-1a in base 36. */
export function legacySettingsEnvironmentId(label: string, baseUrl: string): string {
  return `s-${forward(0x811c9dc5, `${label}\u0000${baseUrl}`).toString(36)}`;
}

function triples(): string[] {
  const out: string[] = [];
  for (const a of ALPHABET) for (const b of ALPHABET) for (const c of ALPHABET) out.push(a + b + c);
  return out;
}

/**
 * A URL `${base}<6 characters>/v1` (base ending in "/") whose old id equals that of
 * `label` + `ownUrl`, or undefined when none is found within the bound.
 */
export function findLegacyCollision(label: string, ownUrl: string, base: string): string | undefined {
  const target = Number.parseInt(legacySettingsEnvironmentId(label, ownUrl).slice(2), 36);
  const start = forward(0x811c9dc5, `${label}\u0000${base}`);
  const all = triples();
  const middle = new Map<number, string>();
  for (const head of all) middle.set(forward(start, head), head);
  const beforeSuffix = backward(target, '/v1');
  for (const tail of all) {
    const head = middle.get(backward(beforeSuffix, tail));
    if (head === undefined) continue;
    const url = `${base}${head}${tail}/v1`;
    if (url !== ownUrl && legacySettingsEnvironmentId(label, url) === legacySettingsEnvironmentId(label, ownUrl))
      return url;
  }
  return undefined;
}
