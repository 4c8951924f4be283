/** Where the viewer finds the decoders `<model-viewer>` loads on demand: files of the site itself, never another origin. */

/** Site URLs (with the site's base path) of the Draco decoder folder, the Basis/KTX2 transcoder folder and the meshopt decoder script. */
export interface DecoderLocations {
  /** Folder of `draco_wasm_wrapper.js` and `draco_decoder.wasm` (`KHR_draco_mesh_compression`). */
  draco: string;
  /** Folder of `basis_transcoder.js` and `basis_transcoder.wasm` (`KHR_texture_basisu`). */
  ktx2: string;
  /** The meshopt decoder script (`EXT_meshopt_compression`). */
  meshopt: string;
}

/** The folder of the site that holds every decoder, below the base path. */
export const DECODERS_DIR = 'decoders';
