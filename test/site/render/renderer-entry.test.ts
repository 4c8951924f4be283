import type { SSRManifest } from 'astro';
import { describe, expect, it } from 'vitest';
import { importingOnce } from '../../../src/site/render/renderer-entry.ts';

/** A loader that counts its calls, as a dynamic import of a module would be counted. */
function counted<T>(value: T): { load: () => Promise<T>; calls: () => number } {
  let calls = 0;
  return {
    load: () => {
      calls++;
      return Promise.resolve(value);
    },
    calls: () => calls,
  };
}

describe('importingOnce', () => {
  it("imports each route's module, the actions and the middleware once, however often the app asks", async () => {
    const modules = { page: { page: () => 'a page' }, actions: { server: {} }, middleware: { onRequest: () => undefined } };
    const page = counted(modules.page);
    const actions = counted(modules.actions);
    const middleware = counted(modules.middleware);
    const manifest = { pageMap: new Map([['src/pages/index.astro', page.load]]), actions: actions.load, middleware: middleware.load } as unknown as SSRManifest;
    const once = importingOnce(manifest);
    for (let i = 0; i < 3; i++) {
      expect(await once.pageMap!.get('src/pages/index.astro')!()).toBe(modules.page);
      expect(await once.actions!()).toBe(modules.actions);
      expect(await once.middleware!()).toBe(modules.middleware);
    }
    expect([page.calls(), actions.calls(), middleware.calls()]).toEqual([1, 1, 1]);
    // The manifest handed in is left as it was.
    expect(manifest.actions).toBe(actions.load);
  });

  it('leaves out what the manifest does not have', () => {
    const once = importingOnce({} as SSRManifest);
    expect(once.pageMap).toBeUndefined();
    expect(once.actions).toBeUndefined();
    expect(once.middleware).toBeUndefined();
  });
});
