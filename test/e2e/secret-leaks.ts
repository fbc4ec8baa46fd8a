/** Looking for a secret in text the way it could leak: as is, in base64 at each byte alignment, or in hex. */

/** The forms a leaked secret could take in a dump. */
export function encodingsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  // Starting at byte 0, 1 or 2 puts that byte at the start of a base64 group; the last char may mix in what follows.
  const base64At = (offset: number) => bytes.subarray(offset).toString('base64').replace(/=+$/, '').slice(0, -1);
  const hex = bytes.toString('hex');
  return [secret, base64At(0), base64At(1), base64At(2), hex, hex.toUpperCase()];
}

/** The secrets (by label) found in `text` in any of their encodings. */
export function leakedSecrets(text: string, secrets: Readonly<Record<string, string>>): string[] {
  return Object.entries(secrets)
    .filter(([, secret]) => encodingsOf(secret).some((encoding) => text.includes(encoding)))
    .map(([label]) => label);
}
