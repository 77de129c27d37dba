// Runs before `npm start` and `npm run dev` (package.json pre-scripts). Plain JavaScript on
// purpose: on an older Node the server's TypeScript files fail to load before any check of
// theirs could run. `npm install` is stopped by `engine-strict` in .npmrc instead.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < REQUIRED_MAJOR) {
  process.stderr.write(
    `Taskwise needs Node.js ${REQUIRED_MAJOR} or newer and this is Node ${process.versions.node}: ` +
      `install Node ${REQUIRED_MAJOR} (https://nodejs.org/en/download, or \`nvm install ${REQUIRED_MAJOR}\`), then run the command again.\n`,
  );
  process.exit(1);
}
