/** SQL migrations are bundled as text (esbuild's text loader; a jest transform in tests). */
declare module '*.sql' {
  const sql: string;
  export default sql;
}
declare module '*.css';
