/**
 * A fast path through Astro 5's template renderer, applied to Astro's runtime as Vite compiles it into the page renderer
 * (a Vite plugin of `astro.config.mjs`).
 *
 * Astro 5.18 renders a template by starting every expression of it at once, each into a buffer of its own (an object,
 * an array and a closure), and only then writes them out in order; an array of children the same way. A record page
 * has about 56 templates with 213 expressions and 24 array items, and most are a string or an attribute, done as soon as
 * started. The fast path writes each expression straight to the page while they finish as they start, and only once one
 * is still pending starts the rest, each into its buffer, as Astro does: the same writes in the same order, without
 * about 240 buffers a page. Astro 6 renders templates and arrays the same way; 5.18 is the last Astro that runs on
 * Node 20, so its runtime does not move under this file.
 *
 * Each change replaces one whole function whose text must be exactly Astro 5.18's: another text stops the renderer's
 * build with a message naming the file, rather than leaving a renderer that is half one and half the other.
 */

/** A change to one file of Astro's runtime: `original` (found exactly once) becomes `replacement`. */
export interface RuntimeChange {
  /** The file's path inside the `astro` package, with forward slashes. */
  file: string;
  original: string;
  replacement: string;
}

/**
 * Renders `children[from..]` after `pending` settles: each starts now into a buffer of its own (as Astro starts every
 * child at once) and is written out once those before it are; with `htmlParts`, the template's part before each child
 * and its last part too. Added to both files, beside the functions that call it.
 */
const RENDER_REST = `
function renderRestInOrder(destination, pending, children, from, htmlParts) {
  const buffers = [];
  for (let k = from; k < children.length; k++) {
    const child = children[k];
    buffers.push(createBufferedRenderer(destination, (buffer) => (child || child === 0 ? renderChild(buffer, child) : void 0)));
  }
  const end = htmlParts ? htmlParts.length : children.length;
  let k = from;
  const next = () => {
    while (k < end) {
      const html = htmlParts?.[k];
      const buffered = buffers[k - from];
      k++;
      if (html) {
        destination.write(markHTMLString(html));
      }
      const flushed = buffered?.flush();
      if (isPromise(flushed)) {
        return flushed.then(next);
      }
    }
  };
  return pending.then(next);
}`;

/** The changes, one per function. */
export const RUNTIME_CHANGES: readonly RuntimeChange[] = [
  {
    file: 'dist/runtime/server/render/astro/render-template.js',
    original: `  render(destination) {
    const flushers = this.expressions.map((exp) => {
      return createBufferedRenderer(destination, (bufferDestination) => {
        if (exp || exp === 0) {
          return renderChild(bufferDestination, exp);
        }
      });
    });
    let i = 0;
    const iterate = () => {
      while (i < this.htmlParts.length) {
        const html = this.htmlParts[i];
        const flusher = flushers[i];
        i++;
        if (html) {
          destination.write(markHTMLString(html));
        }
        if (flusher) {
          const result = flusher.flush();
          if (isPromise(result)) {
            return result.then(iterate);
          }
        }
      }
    };
    return iterate();
  }
}
`,
    replacement: `  render(destination) {
    const { htmlParts, expressions } = this;
    for (let i = 0; i < htmlParts.length; i++) {
      if (htmlParts[i]) {
        destination.write(markHTMLString(htmlParts[i]));
      }
      if (i >= expressions.length) continue;
      const exp = expressions[i];
      const pending = exp || exp === 0 ? renderChild(destination, exp) : void 0;
      if (isPromise(pending)) {
        return renderRestInOrder(destination, pending, expressions, i + 1, htmlParts);
      }
    }
  }
}
${RENDER_REST}
`,
  },
  {
    file: 'dist/runtime/server/render/any.js',
    original: `function renderArray(destination, children) {
  const flushers = children.map((c) => {
    return createBufferedRenderer(destination, (bufferDestination) => {
      return renderChild(bufferDestination, c);
    });
  });
  const iterator = flushers[Symbol.iterator]();
  const iterate = () => {
    for (; ; ) {
      const { value: flusher, done } = iterator.next();
      if (done) {
        break;
      }
      const result = flusher.flush();
      if (isPromise(result)) {
        return result.then(iterate);
      }
    }
  };
  return iterate();
}
`,
    replacement: `function renderArray(destination, children) {
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    const pending = child || child === 0 ? renderChild(destination, child) : void 0;
    if (isPromise(pending)) {
      return renderRestInOrder(destination, pending, children, i + 1);
    }
  }
}
${RENDER_REST}
`,
  },
];

/** The change for the module at `id` (a path Vite resolved, perhaps with a query), or undefined when it is not one. */
export function changeFor(id: string): RuntimeChange | undefined {
  const path = id.split('?')[0]!.replaceAll('\\', '/');
  return RUNTIME_CHANGES.find((change) => path.endsWith(`/node_modules/astro/${change.file}`));
}

/** `code` of Astro's `file` with `change` made; throws naming the file when its text is not the one the change is for. */
export function applyChange(change: RuntimeChange, code: string): string {
  const at = code.indexOf(change.original);
  if (at < 0 || code.indexOf(change.original, at + 1) >= 0) {
    throw new Error(
      `astro/${change.file} is not the file of Astro 5.18 that src/site/render-fast-path.ts changes (` +
        `${at < 0 ? 'the function it replaces is not there' : 'the function it replaces is there twice'}): ` +
        'install the Astro of package-lock.json (npm ci), or revisit the fast path for this Astro',
    );
  }
  return code.slice(0, at) + change.replacement + code.slice(at + change.original.length);
}

/** The Vite plugin that makes the changes as Vite loads Astro's runtime. */
export function renderFastPath(): { name: string; enforce: 'pre'; transform(code: string, id: string): { code: string; map: null } | null } {
  return {
    name: 'aso-render-fast-path',
    enforce: 'pre',
    transform(code, id) {
      const change = changeFor(id);
      return change ? { code: applyChange(change, code), map: null } : null;
    },
  };
}
