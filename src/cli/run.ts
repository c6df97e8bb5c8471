/** Shared plumbing for CLI verbs: one-line errors, exit codes, flag parsing helpers (./plain.ts), hidden aliases. */
import { Option } from 'commander';

export { action, checkHeldOut, debugEnabled, fail, fileList, floatFlag, inputArgs, inputFlag, inputListFlag, inputPath, intFlag, keyValueFlag, keyValues, out, outFileFlag, outFolderFlag } from './plain.js';

/**
 * A hidden old spelling of an option (docs/cli.md lists them): `--n <k>` sets the value of the
 * option whose attribute is `attribute` (e.g. `dialogs` for `--dialogs`), parsed by `parse` (give
 * it the old flag's name so that errors name what the user typed). Not shown in `--help`.
 */
export function alias(flags: string, attribute: string, parse?: (v: string) => unknown): Option {
  const o = new Option(flags, `alias of --${attribute.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).hideHelp();
  if (parse) o.argParser(parse);
  o.attributeName = () => attribute;
  return o;
}
