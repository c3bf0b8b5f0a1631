// A stand-in "server" process for restart tests: opens the store, starts jobs, prints their ids
// as one JSON line, then idles until the test kill -9s it.
import { makeService, shRequest } from './jobs-fixture.js';

const [stateDir, workspace, maxRunning, scriptsJson] = process.argv.slice(2);
const scripts = JSON.parse(scriptsJson!) as string[];
const svc = makeService(stateDir!, { maxRunning: Number(maxRunning) });
const ids: string[] = [];
for (const script of scripts) ids.push((await svc.start(shRequest(workspace!, script))).job.id);
process.stdout.write(`${JSON.stringify(ids)}\n`);
setInterval(() => undefined, 1000);
