/**
 * Representation files a browser would open as a document or run as a script. A host serves a published file from the
 * registry's own origin with the content type of its extension (or the one declared), so an HTML, SVG, XML or
 * JavaScript file there could run script with the site's origin: the check refuses them. Pure.
 */

/** The JavaScript MIME type essences of the WHATWG MIME Sniffing standard. */
const JAVASCRIPT_TYPES: ReadonlySet<string> = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

/** Types a browser renders as a document besides the XML ones: HTML, XSLT and a stream of documents. */
const DOCUMENT_TYPES: ReadonlySet<string> = new Set(['text/html', 'text/xml', 'application/xml', 'text/xsl', 'multipart/x-mixed-replace']);

/**
 * Every extension that mime-db (the table most Node and cloud hosts read), Debian's and Apache's `mime.types` or nginx's
 * `mime.types` maps to an active type, lowercase; a host that ignores the declared media type serves these as such.
 */
const ACTIVE_EXTENSIONS: ReadonlySet<string> = new Set(
  `1km aml apxml atom atomcat atomdeleted atomsrv atomsvc bmml ccmp ccxml cdfx cdxml cellml cjs cl clue cml cpl csl dae
  davmount dbk dd2 ddf dist distz dwd ecma emma emotionml es es3 et3 fdt fo gml gpx grxml gsheet hal held htm html ink
  inkml irp its js kml lasxml lbe lgr link66 lostsyncxml lostxml mads maei mathml meta4 metalink mets mjs mml mods moml
  mpd mpf mpkg mpp mrcx mscml musd mxml obgx odd omdoc opf osm owl pkg pls provx pskcxml rapd rdf relo rfcxml rif rl
  rld rng rs rsat rsd rsheet rss rusd sbml scl sdkd sdkm senmlx sensmlx shf shtml sls smi smil sml sru srx ssdl ssml
  stpx svg svgz swidtag td tei teicorpus tfi ttml uis uo uoml uvt uvvt vxml wadl wbs wif wsdl wspolicy x3d x3dz xaml
  xav xca xcs xdf xdm xdp xdssc xel xenc xer xht xhtm xhtml xhvml xlf xml xmls xns xop xpl xsd xsf xsl xslt xsm xspf
  xul xvm xvml yin zaz zmm`.split(/\s+/),
);

/** The essence of a media type (`Text/HTML; charset=utf-8` is `text/html`). */
function essence(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/** True for a media type a browser renders as a document (HTML, any XML: XHTML, SVG, `+xml`) or runs as a script. */
export function isActiveMediaType(mediaType: string): boolean {
  const type = essence(mediaType);
  return DOCUMENT_TYPES.has(type) || JAVASCRIPT_TYPES.has(type) || /^[^/]+\/[^/]+\+xml$/.test(type);
}

/**
 * The extension a host serves a file name by, lowercase: after the last dot, once trailing dots and spaces are
 * dropped (Windows hosts drop them, so `mesh.html.` is served as `mesh.html`).
 */
export function servedExtension(fileName: string): string {
  const name = fileName.replace(/[. ]+$/, '');
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** True for a file name whose extension hosts serve as a document or a script. */
export function isActiveExtension(fileName: string): boolean {
  const ext = servedExtension(fileName);
  return ACTIVE_EXTENSIONS.has(ext) || ext.endsWith('xml');
}

/** Why a representation would run in a browser from the registry's origin, by its file name and declared media type; empty when it would not. */
export function activeContentProblems(rep: { fileName: string; mediaType: string }): Array<{ field: 'format' | 'mediaType'; message: string }> {
  const file = `representations/${rep.fileName}`;
  const why = "a browser would run its scripts with the registry's own origin; publish such content inside an archive (.zip), or convert it";
  const out: Array<{ field: 'format' | 'mediaType'; message: string }> = [];
  if (isActiveExtension(rep.fileName)) {
    out.push({ field: 'format', message: `${file} is refused: hosts serve a .${servedExtension(rep.fileName)} file as a document or a script, and ${why}` });
  }
  if (isActiveMediaType(rep.mediaType)) {
    out.push({ field: 'mediaType', message: `${file} is refused: media type "${rep.mediaType}" is a document or a script to a browser, and ${why}` });
  }
  return out;
}
