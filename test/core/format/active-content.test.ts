import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activeContentProblems, isActiveExtension, isActiveMediaType, servedExtension } from '@aso-registry/core/format/active-content';
import { CONTENT_TYPES } from '@aso-registry/core/format/content-types';
import { REPRESENTATION_KINDS } from '@aso-registry/core/format/representation-kinds';
import { repoRoot } from '../../support/build-site.ts';

describe('active content', () => {
  it('knows HTML, XML of any kind and JavaScript as active, in any case and with parameters', () => {
    for (const t of ['text/html', 'TEXT/HTML; charset=utf-8', 'application/xhtml+xml', 'image/svg+xml', 'text/xml', 'application/xml', 'application/atom+xml', 'text/javascript', 'application/x-javascript', 'text/jscript', 'text/xsl']) {
      expect(isActiveMediaType(t), t).toBe(true);
    }
    for (const t of ['model/gltf-binary', 'model/gltf+json', 'image/png', 'application/json', 'text/plain', 'application/octet-stream', 'application/xml-dtd', 'text/css', '']) {
      expect(isActiveMediaType(t), t).toBe(false);
    }
  });

  it('takes the extension a host serves by: the last one, lowercase, trailing dots and spaces dropped', () => {
    expect(servedExtension('mesh.tar.HTML')).toBe('html');
    expect(servedExtension('mesh.svg. . ')).toBe('svg');
    expect(servedExtension('mesh')).toBe('');
    expect(isActiveExtension('scene.DAE')).toBe(true);
    expect(isActiveExtension('scene.someformatxml')).toBe(true);
    expect(isActiveExtension('scene.html.zip')).toBe(false);
  });

  it("refuses every extension nginx's stock mime.types serves as an active type", async () => {
    const text = await readFile(join(repoRoot, 'test/fixtures/nginx/mime.types'), 'utf8');
    const body = /types \{([\s\S]*)\}/.exec(text)![1]!.replace(/#.*$/gm, '');
    let active = 0;
    for (const line of body.split(';')) {
      const [type, ...exts] = line.trim().split(/\s+/);
      if (!type || !isActiveMediaType(type)) continue;
      for (const ext of exts) {
        expect(isActiveExtension(`file.${ext}`), `.${ext} (${type})`).toBe(true);
        active++;
      }
    }
    expect(active).toBe(12);
  });

  it('refuses none of the kinds the registry knows, and every active type of the site table', () => {
    for (const k of REPRESENTATION_KINDS) expect(activeContentProblems({ fileName: `x.${k.format}`, mediaType: k.mediaType }), k.format).toEqual([]);
    for (const e of CONTENT_TYPES.filter((c) => ['html', 'js', 'mjs', 'xml', 'svg'].includes(c.ext))) {
      expect(activeContentProblems({ fileName: `x.${e.ext}`, mediaType: e.type }).map((p) => p.field), e.ext).toEqual(['format', 'mediaType']);
    }
  });
});
