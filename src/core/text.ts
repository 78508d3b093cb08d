// Text from the service is shown as text, and also without Unicode bidirectional controls:
// an embedding, override or isolate character could reorder what is shown (a name stored as
// "\u202Elive" displays as "evil"). Right-to-left scripts themselves display as they should.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text without bidirectional embedding, override and isolate characters. */
export function displayText(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
