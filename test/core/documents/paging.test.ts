import { describe, expect, it } from 'vitest';
import { listingPagePath, pageAt, pageCount, pageNumbers, paginate } from '@aso-registry/core/documents/paging';

describe('paging', () => {
  it('splits a list into pages of a fixed size, in order, with an empty list on one page', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    const pages = paginate(items, 4);
    expect(pages.map((p) => p.items)).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    expect(pages.map((p) => [p.number, p.count])).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(paginate([], 4)).toEqual([{ number: 1, count: 1, items: [] }]);
    expect(pageCount(8, 4)).toBe(2);
    expect(pageAt(items, 4, 3).items).toEqual([8, 9]);
  });

  it('refuses a page that does not exist and a page size that is not a positive integer', () => {
    expect(() => pageAt([1, 2], 2, 2)).toThrow('page 2 does not exist (1-1)');
    expect(() => pageAt([1, 2], 2, 0)).toThrow(RangeError);
    expect(() => pageCount(3, 0)).toThrow('page size must be a positive integer, not 0');
  });

  it('puts page 1 at the listing itself and page n under page/n/', () => {
    expect(listingPagePath('', 1)).toBe('');
    expect(listingPagePath('', 2)).toBe('page/2/');
    expect(listingPagePath('tags/wood/', 7)).toBe('tags/wood/page/7/');
  });

  it('links a bounded set of page numbers, with gaps, whatever the page count', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageNumbers(10, 200)).toEqual([1, null, 8, 9, 10, 11, 12, null, 200]);
    // A gap of exactly one number shows the number rather than an ellipsis.
    expect(pageNumbers(4, 9)).toEqual([1, 2, 3, 4, 5, 6, null, 9]);
    expect(pageNumbers(100_000, 100_000)).toEqual([1, null, 99_998, 99_999, 100_000]);
    for (let n = 1; n <= 50; n++) expect(pageNumbers(n, 50).length).toBeLessThanOrEqual(9);
  });
});
