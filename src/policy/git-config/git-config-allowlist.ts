// The git config keys a repository may set (pure). Decided by what is known harmless: a key is on
// this list only if no value of it can make git run a program, load code, or read or write outside
// the repository (or VALUE_CHECKS narrows its values until that holds). Everything else — drivers
// (filter/diff/merge), core.pager/editor/sshCommand/askpass/gitProxy/excludesFile/
// attributesFile, gpg.*, credential.*, alias.*, pager.*, protocol.*, url.* rewrites to transport
// helpers, remote.*.vcs/uploadpack/receivepack, sendemail.*, *.tool, init.templateDir,
// commit.template, mailmap.file, … — is refused as unknown. core.fsmonitor passes only as false,
// submodule.*.update only as checkout/rebase/merge/none, core.hooksPath only as a relative path inside
// the work tree (husky's `.husky/_`): hooks from there are no more than the default .git/hooks, which
// a repository always has — they run only inside the sandbox, and never for the adapters' git or a
// read-only command (both pin core.hooksPath=/dev/null). Some keys are pointers (core.worktree,
// include.path, includeIf.*.path): allowed here, the caller resolves them and keeps them inside the roots.
//
// Keys are written `section.name` (no subsection) or `section.*.name` (any subsection); `section.*`
// allows every name of a section without subsection (colour and advice settings only).

const PLAIN = [
  'core.repositoryformatversion', 'core.filemode', 'core.bare', 'core.logallrefupdates', 'core.ignorecase',
  'core.symlinks', 'core.precomposeunicode', 'core.autocrlf', 'core.eol', 'core.safecrlf', 'core.checkstat',
  'core.trustctime', 'core.quotepath', 'core.sparsecheckout', 'core.sparsecheckoutcone', 'core.abbrev',
  'core.compression', 'core.loosecompression', 'core.bigfilethreshold', 'core.commentchar', 'core.whitespace',
  'core.preloadindex', 'core.untrackedcache', 'core.splitindex', 'core.multipackindex', 'core.commitgraph',
  'core.longpaths', 'core.protecthfs', 'core.protectntfs', 'core.sharedrepository', 'core.warnambiguousrefs',
  'core.fsync', 'core.fsyncmethod', 'core.worktree', 'core.hookspath',
  'extensions.objectformat', 'extensions.worktreeconfig', 'extensions.refstorage', 'extensions.preciousobjects',
  'extensions.partialclone', 'extensions.noop',
  'user.name', 'user.email', 'user.signingkey', 'user.useconfigonly',
  'branch.autosetupmerge', 'branch.autosetuprebase', 'branch.sort',
  'remote.pushdefault', 'submodule.recurse', 'submodule.fetchjobs', 'submodule.propagatebranches',
  'http.extraheader',
  'diff.renames', 'diff.renamelimit', 'diff.algorithm', 'diff.mnemonicprefix', 'diff.noprefix', 'diff.relative',
  'diff.context', 'diff.interhunkcontext', 'diff.indentheuristic', 'diff.submodule', 'diff.wserrorhighlight',
  'diff.colormoved', 'diff.colormovedws', 'diff.ignoresubmodules', 'diff.statgraphwidth', 'diff.dirstat',
  'merge.conflictstyle', 'merge.ff', 'merge.renames', 'merge.renamelimit', 'merge.log', 'merge.stat',
  'merge.verbosity', 'merge.autostash', 'merge.directoryrenames',
  'pull.rebase', 'pull.ff', 'pull.octopus', 'pull.twohead',
  'init.defaultbranch', 'init.defaultobjectformat',
  'fetch.prune', 'fetch.prunetags', 'fetch.recursesubmodules', 'fetch.parallel', 'fetch.writecommitgraph',
  'fetch.showforcedupdates', 'push.default', 'push.followtags', 'push.autosetupremote', 'push.recursesubmodules',
  'gc.auto', 'gc.autodetach', 'gc.writecommitgraph', 'index.version', 'index.threads', 'feature.manyfiles',
  'status.showuntrackedfiles', 'status.submodulesummary', 'status.relativepaths', 'status.short', 'status.branch',
  'status.aheadbehind', 'status.showstash', 'status.renames', 'status.renamelimit',
  'log.date', 'log.decorate', 'log.follow', 'log.abbrevcommit', 'log.showroot', 'log.mailmap',
  'commit.gpgsign', 'commit.verbose', 'commit.cleanup', 'commit.status', 'tag.gpgsign', 'tag.sort',
  'rebase.autosquash', 'rebase.autostash', 'rebase.updaterefs', 'rebase.abbreviatecommands', 'rebase.stat',
  'rerere.enabled', 'rerere.autoupdate', 'i18n.commitencoding', 'i18n.logoutputencoding',
  'grep.linenumber', 'grep.patterntype', 'grep.extendedregexp', 'grep.fulltext', 'grep.column',
  'checkout.defaultremote', 'checkout.workers', 'worktree.guessremote', 'clean.requireforce', 'column.ui',
  'apply.whitespace', 'versionsort.suffix', 'lfs.repositoryformatversion', 'include.path',
  'feature.experimental', 'index.sparse', 'maintenance.auto', 'maintenance.strategy', 'core.fsmonitor', 'gui.wmstate', 'gui.geometry', 'blame.ignorerevsfile', 'blame.markunblamablelines',
  'blame.markignoredlines', 'blame.date', 'blame.showemail', 'blame.coloring',
  'color.*', 'advice.*',
];

const WITH_SUBSECTION = [
  'remote.*.url', 'remote.*.pushurl', 'remote.*.fetch', 'remote.*.push', 'remote.*.tagopt', 'remote.*.prune',
  'remote.*.prunetags', 'remote.*.mirror', 'remote.*.skipdefaultupdate', 'remote.*.skipfetchall',
  'remote.*.promisor', 'remote.*.partialclonefilter',
  'branch.*.remote', 'branch.*.merge', 'branch.*.rebase', 'branch.*.pushremote', 'branch.*.description',
  'branch.*.vscode-merge-base', 'branch.*.github-pr-owner-number',
  'submodule.*.url', 'submodule.*.active', 'submodule.*.update', 'submodule.*.path', 'submodule.*.branch',
  'submodule.*.ignore', 'submodule.*.shallow', 'submodule.*.fetchrecursesubmodules',
  'http.*.extraheader', 'maintenance.*.enabled', 'maintenance.*.schedule', 'color.*.*', 'diff.*.binary', 'diff.*.xfuncname', 'diff.*.funcname', 'diff.*.wordregex',
  'url.*.insteadof', 'url.*.pushinsteadof', 'lfs.*.access', 'includeif.*.path',
];

/** The allowlist as a set of patterns. */
export const ALLOWED_GIT_KEYS: ReadonlySet<string> = new Set([...PLAIN, ...WITH_SUBSECTION]);

// `<transport>::<address>` starts the program git-remote-<transport> (ext:: runs any command).
const TRANSPORT_HELPER = /^[A-Za-z0-9+.-]+::/;
const UPDATE_MODES = new Set(['checkout', 'rebase', 'merge', 'none']);

/** Extra checks on the values (or subsections) of allowed keys; a string is the reason for refusing. */
export const VALUE_CHECKS: Readonly<Record<string, (value: string, subsection: string | null) => string | null>> = {
  'submodule.*.update': (v) => (UPDATE_MODES.has(v) ? null : `its value must be checkout, rebase, merge or none ("!command" runs a program)`),
  'remote.*.url': (v) => (TRANSPORT_HELPER.test(v) ? 'a <transport>::<address> URL starts a remote helper program' : null),
  'remote.*.pushurl': (v) => (TRANSPORT_HELPER.test(v) ? 'a <transport>::<address> URL starts a remote helper program' : null),
  'submodule.*.url': (v) => (TRANSPORT_HELPER.test(v) ? 'a <transport>::<address> URL starts a remote helper program' : null),
  'url.*.insteadof': (_v, sub) => (TRANSPORT_HELPER.test(sub ?? '') ? 'it rewrites URLs to a remote helper program' : null),
  'url.*.pushinsteadof': (_v, sub) => (TRANSPORT_HELPER.test(sub ?? '') ? 'it rewrites URLs to a remote helper program' : null),
  // A program (or git's own daemon, a long-lived process) unless switched off.
  'core.fsmonitor': (v) => (/^(false|no|off|0)$/i.test(v) ? null : 'only "false" is accepted: any other value starts a program or the fsmonitor daemon'),
  // Read by blame relative to the work tree: only a plain relative path inside it.
  'blame.ignorerevsfile': (v) => insideWorkTree(v),
  'core.hookspath': (v) => insideWorkTree(v),
};

/** Refuses a path that is absolute, home-relative or climbs out of the work tree. */
function insideWorkTree(v: string): string | null {
  return v === '' || v.startsWith('/') || v.startsWith('~') || v.split('/').includes('..') ? 'only a relative path inside the work tree is accepted' : null;
}

/** The allowlist pattern a key matches, or null when the key is not known harmless. */
export function allowedPattern(section: string, subsection: string | null, name: string): string | null {
  const p = subsection === null ? `${section}.${name}` : `${section}.*.${name}`;
  if (ALLOWED_GIT_KEYS.has(p)) return p;
  if (subsection === null && ALLOWED_GIT_KEYS.has(`${section}.*`)) return `${section}.*`;
  if (subsection !== null && ALLOWED_GIT_KEYS.has(`${section}.*.*`)) return `${section}.*.*`;
  return null;
}
