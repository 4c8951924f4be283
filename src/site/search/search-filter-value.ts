/**
 * A filter value (a tag, a representation type) as a record page hands it to Pagefind. Pagefind decodes HTML entities
 * in a filter value once more after the HTML parser has (a tag written `&lt;b&gt;` would be indexed as `<b>`), so
 * every `&` is written `&amp;` first: that second decoding gives back the value as it is.
 */
export function searchFilterValue(value: string): string {
  return value.replace(/&/g, '&amp;');
}
