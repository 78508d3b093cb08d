// Characters that show nothing, and keys split by them: the cases of issue 34 (a key split by
// one of them, which a display path could put back together, must still be redacted).

/** Characters that show nothing, each a way to split a key a display path may put back together (issue 34). */
export const INVISIBLES: ReadonlyArray<[string, string]> = [
  ['U+00AD soft hyphen', '\u00AD'],
  ['U+034F combining grapheme joiner', '\u034F'],
  ['U+061C Arabic letter mark', '\u061C'],
  ['U+180E Mongolian vowel separator', '\u180E'],
  ['U+200B zero-width space', '\u200B'],
  ['U+200C zero-width non-joiner', '\u200C'],
  ['U+200D zero-width joiner', '\u200D'],
  ['U+200E left-to-right mark', '\u200E'],
  ['U+200F right-to-left mark', '\u200F'],
  ['U+2060 word joiner', '\u2060'],
  ['U+2061 function application', '\u2061'],
  ['U+2063 invisible separator', '\u2063'],
  ['U+206A inhibit symmetric swapping', '\u206A'],
  ['U+206F nominal digit shapes', '\u206F'],
  ['U+FEFF byte order mark', '\uFEFF'],
  ['U+FE0F variation selector 16', '\uFE0F'],
  ['U+E0001 language tag', '\u{E0001}'],
  ['U+E0041 tag A', '\u{E0041}'],
  ['U+E007F cancel tag', '\u{E007F}'],
  ['U+0001 a C0 control', '\u0001'],
  ['U+0085 next line (C1)', '\u0085'],
];

/** `text` with every character written as a JSON `\uXXXX` escape (astral ones as their surrogate pair's two). */
export function jsonEscaped(text: string): string {
  return Array.from(text.split(''), (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

/** The key split after its 3rd, 9th and 14th characters by `ch` (twice in the middle). */
export function splitKey(key: string, ch: string): string {
  return `${key.slice(0, 3)}${ch}${key.slice(3, 9)}${ch}${ch}${key.slice(9, 14)}${ch}${key.slice(14)}`;
}
