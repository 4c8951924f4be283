/** The check refuses a representation a browser would open as a document or run as a script, naming the file and why. */
import { afterEach, describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/registry/load-registry.ts';
import { formatProblem } from '../../src/registry/registry-model.ts';
import { createFixture, glbFile, REGISTRY_URL, type FileSpec, type Fixture } from './fixture.ts';

const MANIFEST = 'registry/objects/box/versions/1.0.0/aso.object.json';
const WHY = "a browser would run its scripts with the registry's own origin; publish such content inside an archive (.zip), or convert it";
const byExtension = (file: string, ext: string): string => `representations/${file} is refused: hosts serve a .${ext} file as a document or a script, and ${WHY}`;
const byType = (file: string, type: string): string => `representations/${file} is refused: media type "${type}" is a document or a script to a browser, and ${WHY}`;
const SCRIPT = new TextEncoder().encode('<script>window.ran = true</script>');

let fixtures: Fixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.cleanup()));
  fixtures = [];
});

/** The problems of a registry holding box@1.0.0 with a mesh and `extra`. */
async function problemsWith(extra: FileSpec, preview = false): Promise<string[]> {
  const fx = await createFixture();
  fixtures.push(fx);
  await fx.addVersion({ id: 'box', version: '1.0.0', files: [await glbFile('model'), ...(preview ? [] : [extra])], ...(preview ? { preview: extra } : {}) });
  const { problems } = await loadRegistry(fx.root, { registryUrl: REGISTRY_URL });
  return problems.map(formatProblem);
}

const file = (id: string, format: string, mediaType: string): FileSpec => ({ id, type: 'document', format, mediaType, bytes: SCRIPT });

describe('check: representations a browser would run', () => {
  it('refuses mesh.html (text/html) and pic.svg (image/svg+xml), naming the file, the field and why', async () => {
    expect(await problemsWith(file('mesh', 'html', 'text/html'))).toEqual([
      `${MANIFEST}: /representations/1/format: ${byExtension('mesh.html', 'html')}`,
      `${MANIFEST}: /representations/1/mediaType: ${byType('mesh.html', 'text/html')}`,
    ]);
    expect(await problemsWith(file('pic', 'svg', 'image/svg+xml'))).toEqual([
      `${MANIFEST}: /representations/1/format: ${byExtension('pic.svg', 'svg')}`,
      `${MANIFEST}: /representations/1/mediaType: ${byType('pic.svg', 'image/svg+xml')}`,
    ]);
  });

  it.each(['html', 'htm', 'xhtml', 'svg', 'svgz', 'xml', 'js', 'mjs', 'HTML', 'Svg', 'xsl', 'xslt', 'rss', 'atom', 'dae', 'x3d', 'kml', 'shtml', 'xht', 'gpx', 'cdxml', 'html.', 'svg '])(
    'refuses the extension ".%s" whatever the declared media type',
    async (format) => {
      const name = `page.${format}`;
      const ext = format.replace(/[. ]+$/, '').toLowerCase();
      expect(await problemsWith(file('page', format, 'application/octet-stream'))).toEqual([`${MANIFEST}: /representations/1/format: ${byExtension(name, ext)}`]);
    },
  );

  it.each([
    'text/html',
    'application/xhtml+xml',
    'image/svg+xml',
    'application/xml',
    'text/xml',
    'text/javascript',
    'application/javascript',
    'application/x-javascript',
    'text/ecmascript',
    'text/xsl',
    'application/rss+xml',
    'model/vnd.collada+xml',
    'multipart/x-mixed-replace',
    'Text/HTML; charset=utf-8',
    ' IMAGE/SVG+XML ',
  ])('refuses the media type "%s" whatever the extension', async (mediaType) => {
    expect(await problemsWith(file('blob', 'bin', mediaType))).toEqual([`${MANIFEST}: /representations/1/mediaType: ${byType('blob.bin', mediaType)}`]);
  });

  it('refuses by the extension the file name ends with, a preview too, and nothing that no browser runs', async () => {
    expect(await problemsWith(file('scene', 'tar.html', 'application/octet-stream'))).toEqual([`${MANIFEST}: /representations/1/format: ${byExtension('scene.tar.html', 'html')}`]);
    const fx = await createFixture();
    fixtures.push(fx);
    const inert = [
      file('cloud', 'ply', 'application/octet-stream'),
      file('shape', 'obj', 'model/obj'),
      file('site', 'html.zip', 'application/zip'),
      file('data', 'json', 'application/json'),
      file('notes', 'txt', 'text/plain'),
    ];
    await fx.addVersion({ id: 'box', version: '1.0.0', files: [await glbFile('model'), ...inert, file('page', 'htm', 'text/html')] });
    expect((await loadRegistry(fx.root, { registryUrl: REGISTRY_URL })).problems.map(formatProblem)).toEqual([
      `${MANIFEST}: /representations/6/format: ${byExtension('page.htm', 'htm')}`,
      `${MANIFEST}: /representations/6/mediaType: ${byType('page.htm', 'text/html')}`,
    ]);
    expect(await problemsWith(file('preview', 'svg', 'image/svg+xml'), true)).toEqual([
      `${MANIFEST}: /preview/format: ${byExtension('preview.svg', 'svg')}`,
      `${MANIFEST}: /preview/mediaType: ${byType('preview.svg', 'image/svg+xml')}`,
    ]);
  });
});
