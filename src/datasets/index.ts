/** The original public datasets: catalogue, data folder, fetch, references. */
export { CATALOGUE, BABI_TASKS, STRAY_BYTES, archiveLimit, datasetNamed, unpackedLimit, type Catalogue, type CatalogueArchive, type CatalogueDataset, type CatalogueFile } from './catalogue.js';
export { dataRoot, datasetStatus, type DataRoot, type DatasetStatus } from './store.js';
export { fetchDataset, mirrorUrl, sha256File, verifyDataset, type FetchOptions, type FetchReport } from './fetch.js';
export { download, DownloadError, type ByHand, type DownloadOptions, type DownloadResult } from './download.js';
export { resolveRef, type ResolvedRef } from './refs.js';
