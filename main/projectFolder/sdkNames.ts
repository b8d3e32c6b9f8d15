// The names the SDK gives a document's files in its folder (konfuzio_sdk/utils.py amend_file_name and
// slugify): "Gehalt März.pdf" is "gehalt-marz.pdf", its searchable PDF "gehalt-marz_ocr.pdf". Written the
// same way, the SDK finds the files Folio exports (Document.get_file) and Folio the ones the SDK downloaded.

/** Django's slugify as the SDK has it: ASCII only, lower case, runs of space, dash, colon and dot to one dash. */
export function sdkSlugify(value: string): string {
  const ascii = value.normalize('NFKD').replace(/[^\x00-\x7f]/g, '');
  const kept = ascii.toLowerCase().replace(/[^:.\w\s-]/g, '');
  return kept.replace(/[-\s:.]+/g, '-').replace(/-_/g, '_');
}

/** Python's os.path.splitext: the extension starts at the last dot that is not the name's leading dots. */
function splitExtension(name: string): [string, string] {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  const dot = name.lastIndexOf('.');
  if (dot <= slash + 1) return [name, ''];
  const base = name.slice(slash + 1, dot);
  if (/^\.*$/.test(base)) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** amend_file_name(file_name, append_text, new_extension) for the names Folio needs. */
export function sdkFileName(fileName: string, appendText = '', newExtension?: string): string {
  const [stem, extension] = splitExtension(fileName.trim() ? fileName : 'document');
  const suffix = appendText ? `_${appendText}` : '';
  return `${sdkSlugify(stem)}${suffix}${newExtension ?? extension}`;
}
