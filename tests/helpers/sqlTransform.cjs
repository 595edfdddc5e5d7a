// Jest transform: a .sql file becomes a module whose default export is its text,
// the same shape esbuild's text loader gives the server bundle.
module.exports = {
  process(source) {
    return { code: `module.exports = { __esModule: true, default: ${JSON.stringify(source)} };` };
  },
};
