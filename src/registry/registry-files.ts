/** The names of the files and folders of a registry tree (DESIGN §4), in one place. */

/** A version's manifest. */
export const MANIFEST_FILE = 'aso.object.json';
/** A version's publication record. */
export const PUBLICATION_FILE = 'publication.json';
/** The folder of a version's representation files. */
export const REPRESENTATIONS_DIR = 'representations';
/** The log's public key, in the registry folder. */
export const LOG_KEY_FILE = 'log.pub';
