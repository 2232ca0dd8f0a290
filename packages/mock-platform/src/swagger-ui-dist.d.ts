// swagger-ui-dist ships no types for this file: a function returning the package's directory.
declare module 'swagger-ui-dist/absolute-path.js' {
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
