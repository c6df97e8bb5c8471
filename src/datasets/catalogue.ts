/**
 * The catalogue of the original public datasets that `dialogym data fetch` downloads: where their
 * authors and the standard loaders publish them, how their archives are laid out, the SHA-256 of
 * every file (or of the archive, where only that is known), and the short references by which
 * every verb finds a file (`babi:task5-tst-oov`, `dstc6:tst1/task1`, `airdialogue:train-data`).
 *
 * Sources of the URLs and layouts:
 * - bAbI dialog tasks: ParlAI `parlai/tasks/dialog_babi/build.py` (facebookresearch/ParlAI, the
 *   `url = 'http://parl.ai/downloads/dialog_babi/' + fname` line, fname `dialog_babi.tar.gz`), whose
 *   `agents.py` reads `dialog-bAbI-tasks/<file>` inside the unpacked archive. Later ParlAI versions
 *   record the archive's SHA-256 as bb36155c… (a `DownloadableFile`), given here for reference; the
 *   files are checked one by one against the release (Bordes, Boureau & Weston 2017).
 * - DSTC6 Track 1: the organisers' repository perezjln/dstc6-goal-oriented-end-to-end ships the data
 *   as `data/dataset-E2E-goal-oriented-test-v1.0.zip` (test sets with answers, the two extended KBs)
 *   and `data/dataset-E2E-goal-oriented.zip` (training dialogs); participants unzip them into
 *   `data/dataset-E2E-goal-oriented{,-test-v1.0}/` (their READMEs' trees).
 * - AirDialogue: Hugging Face datasets `datasets/air_dialogue/air_dialogue.py` (`_URLs`, and the
 *   paths `airdialogue_data/airdialogue/{train,dev}_{data,kb}.json` in `_split_generators`); its
 *   `dataset_infos.json` records the archive (272,898,923 bytes, SHA-256 7d2130cd…). The same URL
 *   is read by ParlAI `parlai/tasks/airdialogue/build.py` (which moves `airdialogue_data/airdialogue`,
 *   `resources` and `readme.txt` up one level, as done here) and by google-research's AirDialogue
 *   scripts; those recorded two other checksums of the archive over the years (4ebf1e7e…, cfce5781…),
 *   which are accepted too.
 *
 * The catalogue is plain data: `fetchDataset` takes one (this one by default), so a mirror that
 * repackages the archives can be described by a catalogue of its own (`data fetch --catalogue`).
 */

/** A file of a dataset with its SHA-256 and size in bytes. */
export interface CatalogueFile {
  readonly sha256: string;
  readonly bytes: number;
  /** Not in every revision of the release: absent is fine, present must match. */
  readonly optional?: boolean;
}

/** A downloadable archive. */
export interface CatalogueArchive {
  /** Where its publisher serves it; a mirror serves it at the same path. */
  readonly url: string;
  readonly format: 'tar.gz' | 'zip';
  /** Accepted SHA-256 values of the archive itself (only where the files' own are not known). */
  readonly sha256?: readonly string[];
  /** Its size in bytes when known (shown before the download). */
  readonly bytes?: number;
}

export interface CatalogueDataset {
  /** The name `data fetch` takes. */
  readonly name: string;
  /** What it is, in a few words. */
  readonly title: string;
  /** The folder, under the data folder, its files go to (the same layout as the originals' release folders). */
  readonly folder: string;
  readonly licence: string;
  /** Where to read about it. */
  readonly home: string;
  readonly archive: CatalogueArchive;
  /**
   * A file of the dataset, relative to `folder`, that marks where the dataset's tree starts inside
   * the archive (the archive may hold it under a top folder of any name).
   */
  readonly anchor: string;
  /** A sub-folder (relative to the tree's start) whose contents move up one level on install. */
  readonly flatten?: string;
  /**
   * Its files (relative to `folder`) and their checksums: only these are installed. Undefined: the
   * whole tree is installed and the archive's own checksum is what is verified.
   */
  readonly files?: Readonly<Record<string, CatalogueFile>>;
  /** Files that must be present after install (the dataset is usable), relative to `folder`. */
  readonly required: readonly string[];
  /** Files installed as found, without a checksum (documentation whose wording differs between revisions). */
  readonly unchecked?: readonly string[];
  /**
   * The most bytes one of the `unchecked` files may hold (their sizes were never published): a bound
   * well above the release's, so that an archive cannot fill the disk through them.
   */
  readonly uncheckedMaxBytes?: number;
  /** The prefix of its references (`babi` in `babi:task1-trn`); several datasets may share one. */
  readonly refPrefix: string;
  /** Reference names → paths relative to `folder` (a path may also be used as is after the prefix). */
  readonly refs: Readonly<Record<string, string>>;
  /** A few references worth showing (`data list`). */
  readonly examples: readonly string[];
  /** Fetched by `data fetch all`. */
  readonly inAll: boolean;
}

export type Catalogue = readonly CatalogueDataset[];

const f = (sha256: string, bytes: number, optional?: true): CatalogueFile => (optional ? { sha256, bytes, optional } : { sha256, bytes });

/** bAbI task names as the file names spell them. */
export const BABI_TASKS: Readonly<Record<number, string>> = {
  1: 'task1-API-calls',
  2: 'task2-API-refine',
  3: 'task3-options',
  4: 'task4-phone-address',
  5: 'task5-full-dialogs',
  6: 'task6-dstc2',
};

function babiRefs(): Record<string, string> {
  const refs: Record<string, string> = {
    candidates: 'dialog-babi-candidates.txt',
    kb: 'dialog-babi-kb-all.txt',
    'task6-candidates': 'dialog-babi-task6-dstc2-candidates.txt',
    'task6-kb': 'dialog-babi-task6-dstc2-kb.txt',
  };
  for (let t = 1; t <= 6; t++) {
    for (const split of t === 6 ? ['trn', 'dev', 'tst'] : ['trn', 'dev', 'tst', 'tst-OOV']) {
      refs[`task${t}-${split.toLowerCase()}`] = `dialog-babi-${BABI_TASKS[t]}-${split}.txt`;
    }
  }
  return refs;
}

/** DSTC6 task names as the file names spell them. */
const DSTC6_TASKS = ['task1API', 'task2REFINE', 'task3OPTIONS', 'task4INFOS', 'task5FULL'] as const;
/** The KB and slots of each DSTC6 test set, as its file names spell them. */
const DSTC6_SETS: Readonly<Record<string, string>> = { tst1: 'kb1_atmosphere', tst2: 'kb2_atmosphere', tst3: 'kb1_atmosphere_restrictions', tst4: 'kb2_atmosphere_restrictions' };

function dstc6TestRefs(): Record<string, string> {
  const refs: Record<string, string> = { kb1: 'extendedkb1.txt', kb2: 'extendedkb2.txt' };
  for (const [set, kb] of Object.entries(DSTC6_SETS)) {
    refs[set] = set;
    DSTC6_TASKS.forEach((task, i) => {
      refs[`${set}/task${i + 1}`] = `${set}/dialog-${task}-${kb}-distr0.5-tst1000.json`;
      refs[`${set}/task${i + 1}-answers`] = `${set}/dialog-${task}-${kb}-distr0.5-tst1000.answers.json`;
    });
  }
  return refs;
}

function dstc6TrainRefs(): Record<string, string> {
  const refs: Record<string, string> = { trn: '.', 'trn/kb1': 'extendedkb1.txt' };
  DSTC6_TASKS.forEach((task, i) => (refs[`trn/task${i + 1}`] = `dialog-${task}-kb1_atmosphere-distr0.5-trn10000.json`));
  return refs;
}

const BABI_FILES: Readonly<Record<string, CatalogueFile>> = {
  'LICENSE.txt': f('ae7c5f7078ce6b7c38f0e40da66e4f8c6aa45d933eb9e899997b0104f63ac2fe', 19568, true),
  'dialog-babi-candidates.txt': f('719f9c94e69fb22c03401588fd01079c284571e940f03185d63751de94057bc0', 244174),
  'dialog-babi-kb-all.txt': f('26eac3e259b4c84e8babaed71deefc960637989963d789feafeb30112f5f53b2', 535231),
  'dialog-babi-task1-API-calls-dev.txt': f('ab73b5f54248dfc8aa6fdee8cc3909e09afab9591686f7a6e306d274c6bbf10a', 329372),
  'dialog-babi-task1-API-calls-trn.txt': f('8eef6011ab86e886eb218e5859ee1015fdcdd8088aba53bd83b2c055671b9575', 330480),
  'dialog-babi-task1-API-calls-tst-OOV.txt': f('71a294d91bef207b26f9c29981a501d20b4392262f6873bb4f9c18ffee522c60', 331515),
  'dialog-babi-task1-API-calls-tst.txt': f('21a3ed26c483ec205d268fa3919f9c48cde48c34e26f79b2f96bd6f4edb60583', 326969),
  'dialog-babi-task2-API-refine-dev.txt': f('7825f7c3f48bab3f48f398ef0e40a9689fa40c3979a199df615bc7aad5db11c4', 569664),
  'dialog-babi-task2-API-refine-trn.txt': f('2bd2d0ee376077878754ad4bf0892ca192658f4f0359ef92b18163ba20eeb568', 568631),
  'dialog-babi-task2-API-refine-tst-OOV.txt': f('9fd9ab3b3522ebba0ce0e76416ba9ba57634edd67f88005af8198063c854fc15', 570561),
  'dialog-babi-task2-API-refine-tst.txt': f('2d79edb4bcfa120e9e293ddba52b790f109c1648be8c491442a26e6a9a286b40', 565950),
  'dialog-babi-task3-options-dev.txt': f('f2b28ff18f3aa0664924862d185bee0ba29b76981f1cc36c5fb80598cc642985', 2208321),
  'dialog-babi-task3-options-trn.txt': f('3e53cf51a2346b7090f9cd5c3a83397b4b63d0c9e1780a6789b6a24781abdead', 2112457),
  'dialog-babi-task3-options-tst-OOV.txt': f('8b9c68288f4240874e63da8720b136fee2a7e2dc4d38c97174acecfdb36e0adb', 2182323),
  'dialog-babi-task3-options-tst.txt': f('bf3cf65eb059a422fd3839fe2706f62171a0b196ed5216d555843ed0c78a2c40', 2200100),
  'dialog-babi-task4-phone-address-dev.txt': f('956969c043b7476944f5dee93e4fb0f6899917c62522bc336948a3d40ad127e4', 725512),
  'dialog-babi-task4-phone-address-trn.txt': f('5c9471e4e0992412de71e2427d03152f1198238ada99d1a463550486bd14f551', 724970),
  'dialog-babi-task4-phone-address-tst-OOV.txt': f('504db67af3dad160b9c4af3d8c4e25ac8136408a161a0f4005f648402d194e59', 734624),
  'dialog-babi-task4-phone-address-tst.txt': f('19fa3c011d4bc90e6e6d299644f7203a5a613f448a7d127eb866fe58512adbb3', 720901),
  'dialog-babi-task5-full-dialogs-dev.txt': f('1b5c95aee4b3120872af02840537508f9c585daea95e893c1ee7bc85c320d0e3', 2676528),
  'dialog-babi-task5-full-dialogs-trn.txt': f('4200d60e301a94ba5a3f0675179d0f5f51ea1ac52d8cc855cd62a2e7e2a6b2d9', 2649339),
  'dialog-babi-task5-full-dialogs-tst-OOV.txt': f('e009111ff20308c0abdb3356d2449f140939ded022623578b2e1e4263b1a8350', 2712297),
  'dialog-babi-task5-full-dialogs-tst.txt': f('584d16f1931de4793a983fbf0bfbfc3adb5f2feff974005eaddf7459debce8af', 2672171),
  'dialog-babi-task6-dstc2-candidates.txt': f('0ad2c7f9f8a34ee4d700ea6e1ac5dd3b0c4b1af4a3233b018b62c8c3c235827d', 146516),
  'dialog-babi-task6-dstc2-dev.txt': f('24e8827b8889ef9bc9f1a0c625cef2ca6e3b7097f765ce71d186e2bdef27074b', 1342524),
  'dialog-babi-task6-dstc2-kb.txt': f('cae1e86f50c4bc40d0cc1b5429ea0fa6245a83d99ce6a68b120634b373328552', 28398, true),
  'dialog-babi-task6-dstc2-trn.txt': f('bd7c5728825edba23e308cba5b9b24412ea363cd54c3d2fd6a99854447585852', 4022063),
  'dialog-babi-task6-dstc2-tst.txt': f('794890f7190c77af0ed0d5855f6c9ed015671a9790ec44ec3f29ff5455da24ff', 2213590),
};

const DSTC6_TEST_FILES: Readonly<Record<string, CatalogueFile>> = {
  'extendedkb1.txt': f('2f1fb4d65bc35a915d1feeb7e9683f6930314f0a1b5aaa1590ea27321570aaff', 2563092),
  'extendedkb2.txt': f('a10dba538460704e3c7951f1cce6d221a803bad9ca364a2aa347a7f77bc4c4f2', 2562438),
  'tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.answers.json': f('d4666d7fb5ce2fe406efb5528b60a707fd3ce53ed0f3f8c6b4ef4e732d54d5b8', 146000),
  'tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json': f('137e86cc6db6b4a40faf00935ed0bc3873678d7f72ca2f31bd33a412d4974c02', 1251406),
  'tst1/dialog-task2REFINE-kb1_atmosphere-distr0.5-tst1000.answers.json': f('14dfe871c1c0367d946526e146bb069ed705de2282b05e70a1a44772d8b0382e', 146000),
  'tst1/dialog-task2REFINE-kb1_atmosphere-distr0.5-tst1000.json': f('73eec7a7018ed5018ec4c1848fdd08169a99d56a39a5a7194abe472496b4dab8', 1422288),
  'tst1/dialog-task3OPTIONS-kb1_atmosphere-distr0.5-tst1000.answers.json': f('e886ca750592a2ea766311aa6f1c3f14a3d5d67a94924af685980bfb01dba618', 146000),
  'tst1/dialog-task3OPTIONS-kb1_atmosphere-distr0.5-tst1000.json': f('8f5575c05f782e181aa1288063c7cb7a94e19d9d2ab46a0f57399d7a5c3e4c0b', 3063399),
  'tst1/dialog-task4INFOS-kb1_atmosphere-distr0.5-tst1000.answers.json': f('0be135b7e67a972aa3315cdcd1e30395ad0d319af1079734ea8f503d648d18a5', 146000),
  'tst1/dialog-task4INFOS-kb1_atmosphere-distr0.5-tst1000.json': f('5a5ba48dcd95cd38f7e54a54552725e9c3c49e6246a96b510a5659bfcbf88099', 1543425),
  'tst1/dialog-task5FULL-kb1_atmosphere-distr0.5-tst1000.answers.json': f('1e165b5f62d893b7f32f5de3d4f412d9e7918e7e63d3bb9bfebfcf1d5f2088da', 146000),
  'tst1/dialog-task5FULL-kb1_atmosphere-distr0.5-tst1000.json': f('7793fc23a8ab450ab197efd7150bc33fe3cf45d8d38007c2c205f9a2516f4835', 2715424),
  'tst2/dialog-task1API-kb2_atmosphere-distr0.5-tst1000.answers.json': f('fff8d98a70e7d6b72264bc7804552f93a3ca1deedb1d20fadd8c446903cbbe93', 146000),
  'tst2/dialog-task1API-kb2_atmosphere-distr0.5-tst1000.json': f('0224acca0989dd03d6695a0f695e7c9a77d29eea48df0906fc5f257342666c35', 1252080),
  'tst2/dialog-task2REFINE-kb2_atmosphere-distr0.5-tst1000.answers.json': f('f77684682f85846b99c0bf18a8e8c64a472bba0e74ae75b5fdbdded0b906eb91', 146000),
  'tst2/dialog-task2REFINE-kb2_atmosphere-distr0.5-tst1000.json': f('c763627449a331814b4127868f82edee88c4d0a7a63755e092665078824412a7', 1446832),
  'tst2/dialog-task3OPTIONS-kb2_atmosphere-distr0.5-tst1000.answers.json': f('ea197d45d2469c7e3925a6ce58e3898715a6892a7317ad30d8f29a9d0a2341d2', 146000),
  'tst2/dialog-task3OPTIONS-kb2_atmosphere-distr0.5-tst1000.json': f('40942148c7b5b3fbed785caf1f3e34cd073d90452e601402e7ce5c5fc0ba98f7', 3065610),
  'tst2/dialog-task4INFOS-kb2_atmosphere-distr0.5-tst1000.answers.json': f('0d731883e99fd3c3e2a8ba7d2962f3ff75b5551b149e31ff3aa7bd759cd42ebd', 146000),
  'tst2/dialog-task4INFOS-kb2_atmosphere-distr0.5-tst1000.json': f('40bd843652799a67ba9f3eddc22cf2c7dc73a1b984cc43f4a71e97b6e30d9759', 1536789),
  'tst2/dialog-task5FULL-kb2_atmosphere-distr0.5-tst1000.answers.json': f('a114febed07ceeb0aa1399854ac5c7bdd55277c1432f44694acd99d2e9bd75ea', 146000),
  'tst2/dialog-task5FULL-kb2_atmosphere-distr0.5-tst1000.json': f('375cb71e064505c94c8a4ecf83379ae4a74361a1293016d696900f4b56dcf524', 2776605),
  'tst3/dialog-task1API-kb1_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('783fc300be4973cf8a29b2cb4e5cb34bccba9827ef43d8938e7e9b135566d323', 146000),
  'tst3/dialog-task1API-kb1_atmosphere_restrictions-distr0.5-tst1000.json': f('092b9bcd900edd881c0eb600a8fd43dd9a0e10ba10c6d4d7672c468bbc54c90c', 1306411),
  'tst3/dialog-task2REFINE-kb1_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('0f551b641de95515f67ec1f9f1b4f7ac7e507a2c2bb44ed5c595f830fbf0d8f6', 146000),
  'tst3/dialog-task2REFINE-kb1_atmosphere_restrictions-distr0.5-tst1000.json': f('5cbdb4b68b8909abc69faf74869e9b3bdba8239885497c612b716f74061a52ed', 1549412),
  'tst3/dialog-task3OPTIONS-kb1_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('40ec8032e10df41413a8a0bb6db537568367953e0541b0a645e28c37f7759492', 146000),
  'tst3/dialog-task3OPTIONS-kb1_atmosphere_restrictions-distr0.5-tst1000.json': f('dc891dc2936204d0bc028ebbd8e56159c85ce1be2b181471b505aa6cf7ec129f', 2880613),
  'tst3/dialog-task4INFOS-kb1_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('5bd4831945b305e8a4c2c941aed8df581d545c5c633736f7021bb6f5d52a4098', 146000),
  'tst3/dialog-task4INFOS-kb1_atmosphere_restrictions-distr0.5-tst1000.json': f('bf2e657adbf60c68984b65b5cf84b7bf808b641be1dbf0d17b35d9e5319415bb', 1549049),
  'tst3/dialog-task5FULL-kb1_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('f2d82e63ce13e848eb295e9a9c77cd34845400b39510350cbcfb46e1f18c68bd', 146000),
  'tst3/dialog-task5FULL-kb1_atmosphere_restrictions-distr0.5-tst1000.json': f('b54fd44501623a2f73a8b84715d647f1091436a7df4fc5740b3c1429fb1ae002', 2327413),
  'tst4/dialog-task1API-kb2_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('a2debe6bcf88cb0eead9a59d415f6978aa2e015ea209dce9a25ec7eefa5e27d9', 146000),
  'tst4/dialog-task1API-kb2_atmosphere_restrictions-distr0.5-tst1000.json': f('fe42c3bfb9de339fbd31ed0218cdd74956b9ca4d13cc6fe73d52fd0f1484d3be', 1303914),
  'tst4/dialog-task2REFINE-kb2_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('2447353ad495e7455477a6a505e476df77c5f9316ac2e90b3a9c78d92f2182a5', 146000),
  'tst4/dialog-task2REFINE-kb2_atmosphere_restrictions-distr0.5-tst1000.json': f('5b789c63289cb800578c377d7c8a3122ccc69ccee36d0e314a71a74cc2ebbe5d', 1539109),
  'tst4/dialog-task3OPTIONS-kb2_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('c1ac9410de0776d3127bc421d23a708a2653ed1ebe18d1a47636b0f9fefa33f1', 146000),
  'tst4/dialog-task3OPTIONS-kb2_atmosphere_restrictions-distr0.5-tst1000.json': f('393e1da883e856b981dba5bc68fe66e1b5bab59884a958aab79b8ae3f13cdd91', 2853032),
  'tst4/dialog-task4INFOS-kb2_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('fabcd7370c26804f305e4179c8a8a9185af1e9c7d5852765652257e958afe972', 146000),
  'tst4/dialog-task4INFOS-kb2_atmosphere_restrictions-distr0.5-tst1000.json': f('984e2ed83a01c6b6bd8d3be793505446e5efd9ebe7ebd9351182e1d646812fff', 1543870),
  'tst4/dialog-task5FULL-kb2_atmosphere_restrictions-distr0.5-tst1000.answers.json': f('9156bf169d7159698768eee9d7189e294f8a1e95f1ffa1ad755015cfad76dd6e', 146000),
  'tst4/dialog-task5FULL-kb2_atmosphere_restrictions-distr0.5-tst1000.json': f('45f0f6ac60aa61ac8e3628e6d0be70c15c6e7a900333afca5299e5cb95baead4', 2287718),
};

/** The catalogue `dialogym data fetch` uses. */
export const CATALOGUE: Catalogue = [
  {
    name: 'babi',
    title: 'bAbI dialog tasks 1-6 (restaurant booking; task 6 from DSTC2)',
    folder: 'dialog-bAbI-tasks',
    licence: 'CC BY 3.0 (LICENSE.txt)',
    home: 'https://github.com/facebookresearch/ParlAI/tree/main/parlai/tasks/dialog_babi',
    archive: { url: 'http://parl.ai/downloads/dialog_babi/dialog_babi.tar.gz', format: 'tar.gz' },
    anchor: 'dialog-babi-candidates.txt',
    files: BABI_FILES,
    required: Object.keys(BABI_FILES).filter((p) => BABI_FILES[p]?.optional !== true),
    unchecked: ['README.txt'],
    uncheckedMaxBytes: 64 * 1024, // the release's README.txt: 2,885 bytes
    refPrefix: 'babi',
    refs: babiRefs(),
    examples: ['babi:task5-tst-oov', 'babi:candidates', 'babi:kb'],
    inAll: true,
  },
  {
    name: 'dstc6',
    title: 'DSTC6 Track 1 test sets tst1-tst4 with answers, extended KBs 1 and 2',
    folder: 'dstc6-track1/dataset-E2E-goal-oriented-test-v1.0',
    licence: "the organisers' repository is BSD 3-Clause; the data follow the bAbI dialog tasks (CC BY 3.0)",
    home: 'https://github.com/perezjln/dstc6-goal-oriented-end-to-end',
    archive: { url: 'https://github.com/perezjln/dstc6-goal-oriented-end-to-end/raw/master/data/dataset-E2E-goal-oriented-test-v1.0.zip', format: 'zip' },
    anchor: 'tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000.json',
    files: DSTC6_TEST_FILES,
    required: Object.keys(DSTC6_TEST_FILES),
    refPrefix: 'dstc6',
    refs: dstc6TestRefs(),
    examples: ['dstc6:tst1/task1', 'dstc6:tst1/task1-answers', 'dstc6:kb1'],
    inAll: true,
  },
  {
    name: 'dstc6-train',
    title: 'DSTC6 Track 1 training dialogs (10,000 per task) and extended KB 1',
    folder: 'dstc6-track1/dataset-E2E-goal-oriented',
    licence: "the organisers' repository is BSD 3-Clause; the data follow the bAbI dialog tasks (CC BY 3.0)",
    home: 'https://github.com/perezjln/dstc6-goal-oriented-end-to-end',
    archive: { url: 'https://github.com/perezjln/dstc6-goal-oriented-end-to-end/raw/master/data/dataset-E2E-goal-oriented.zip', format: 'zip' },
    anchor: 'extendedkb1.txt',
    // No checksum of the training dialogs was ever published: only the KB (the test release's) is checked.
    files: {
      'extendedkb1.txt': DSTC6_TEST_FILES['extendedkb1.txt'] as CatalogueFile,
    },
    required: ['extendedkb1.txt', ...DSTC6_TASKS.map((t) => `dialog-${t}-kb1_atmosphere-distr0.5-trn10000.json`)],
    unchecked: DSTC6_TASKS.map((t) => `dialog-${t}-kb1_atmosphere-distr0.5-trn10000.json`),
    // The test files hold 1.3-3.1 MB per 1,000 dialogs: 10,000 training dialogs are some 13-31 MB.
    uncheckedMaxBytes: 200_000_000,
    refPrefix: 'dstc6',
    refs: dstc6TrainRefs(),
    examples: ['dstc6:trn/task1', 'dstc6:trn/kb1'],
    inAll: false,
  },
  {
    name: 'airdialogue',
    title: 'AirDialogue (flight booking): 321,459 train / 40,363 dev dialogues with their KBs, context-generator resources',
    folder: 'airdialogue',
    licence: 'CC BY-NC 4.0 (as the Hugging Face loader records it)',
    home: 'https://github.com/google/airdialogue',
    archive: {
      url: 'https://storage.googleapis.com/airdialogue/airdialogue_data.tar.gz',
      format: 'tar.gz',
      bytes: 272_898_923,
      sha256: [
        '7d2130cdde73a59afd6ad6c463a25453d8ed677c1b3a4a4aaa2406db9c9712cb', // Hugging Face dataset_infos.json (v1.1.0); ParlAI
        '4ebf1e7e44078fa0a1986539f6d1827851982420045c674ff26d869e02560b05', // ParlAI parlai/tasks/airdialogue/build.py (earlier)
        'cfce57816f1df881633b3e819ec5c95533e2c4b19064e81d5bdefe207cbab50a', // google-research AirDialogue build.py (version 1.1)
      ],
    },
    anchor: 'airdialogue/train_data.json',
    flatten: 'airdialogue',
    required: ['train_data.json', 'train_kb.json', 'dev_data.json', 'dev_kb.json'],
    refPrefix: 'airdialogue',
    refs: { 'train-data': 'train_data.json', 'train-kb': 'train_kb.json', 'dev-data': 'dev_data.json', 'dev-kb': 'dev_kb.json', resources: 'resources' },
    examples: ['airdialogue:train-data', 'airdialogue:train-kb'],
    inAll: true,
  },
];

/**
 * The most bytes the files of an archive that are not part of the release may hold together (an
 * `__MACOSX/` folder, a note of the mirror): they are left out, never written, but still counted.
 */
export const STRAY_BYTES = 1 << 20;

/**
 * The most bytes the files of `d`'s archive may unpack to: the catalogue's sizes of its files, the
 * bound of its unchecked ones and `STRAY_BYTES`; undefined when the catalogue lists no files (the
 * archive's own SHA-256, checked before unpacking, is then what vouches for its contents).
 */
export function unpackedLimit(d: CatalogueDataset): number | undefined {
  if (d.files === undefined) return undefined;
  const files = Object.values(d.files).reduce((a, f) => a + f.bytes, 0);
  return files + (d.unchecked?.length ?? 0) * (d.uncheckedMaxBytes ?? 0) + STRAY_BYTES;
}

/**
 * The bound of `d`'s download: the archive's size when the catalogue knows it (`exact` when it
 * accepts one checksum; with several revisions of the archive, whose other sizes were not recorded,
 * that size plus 5%), else what its files unpack to plus the archive format's overhead (a
 * compressed archive of them is never larger: tar's 512-byte headers and padding, gzip's stored
 * blocks on incompressible data, zip's headers all fit in 1% and 1 MiB). Undefined when the
 * catalogue gives neither.
 */
export function archiveLimit(d: CatalogueDataset): { readonly bytes: number; readonly exact: boolean } | undefined {
  if (d.archive.bytes !== undefined) {
    return (d.archive.sha256?.length ?? 0) <= 1 ? { bytes: d.archive.bytes, exact: true } : { bytes: Math.ceil(d.archive.bytes * 1.05), exact: false };
  }
  const unpacked = unpackedLimit(d);
  return unpacked === undefined ? undefined : { bytes: Math.ceil(unpacked * 1.01) + (1 << 20), exact: false };
}

/** The dataset of `catalogue` named `name`, or undefined. */
export function datasetNamed(catalogue: Catalogue, name: string): CatalogueDataset | undefined {
  return catalogue.find((d) => d.name === name);
}
