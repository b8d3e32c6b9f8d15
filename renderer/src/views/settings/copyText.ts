// Puts text on the clipboard. The Clipboard API needs a secure context (Folio on 127.0.0.1 is one);
// elsewhere the older copy command on a selected, off-screen text area does it.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen-copy';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } finally {
      area.remove();
    }
  }
}
