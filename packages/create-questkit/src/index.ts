/**
 * @module
 * `create-questkit`: the project generator behind `npm create questkit`, as a library. The binary
 * is `dist/cli.js`; {@link projectFiles} gives a project's files without writing them.
 */
export { projectFiles, TargetNotEmptyError, type WriteOptions, writeProject } from './generate.js';
export {
  FRAMEWORK_TITLES,
  FRAMEWORKS,
  type Framework,
  IDENTIFICATION_METHODS,
  type IdentificationMethod,
  nameProblem,
  type ProjectOptions,
  parseFramework,
  parseRequires,
  UsageError,
} from './options.js';
export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type RunIo, run, USAGE } from './run.js';
export { versions } from './versions.js';
