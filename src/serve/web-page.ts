/**
 * The chat pages are static files, but their message box should take exactly what the server
 * accepts (`serve --max-text`): the `maxlength` of the `id="text"` input is set when the page is
 * loaded, so a person never types more than the server keeps.
 */
const TEXT_INPUT = /(<input\b[^>]*\bid="text"[^>]*\bmaxlength=")\d+(")/;

/** `html` with the message box's `maxlength` set to `maxText` (unchanged when the page has no such box). */
export function withTextLimit(html: Buffer, maxText: number): Buffer {
  const s = html.toString('utf8');
  const t = s.replace(TEXT_INPUT, `$1${maxText}$2`);
  return t === s ? html : Buffer.from(t, 'utf8');
}
