// Argument policies of the read-only file and text commands (SPEC §4 allowlist).
import { fileCommand as f } from './file-command.js';
import type { ArgRule } from './types.js';

const GREP = f({
  operands: 'pattern-then-paths',
  patternOptions: ['e', 'f', 'regexp', 'file'],
  shortValue: 'efmABCdD',
  longValue: ['regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'label', 'include', 'exclude', 'exclude-from', 'exclude-dir', 'binary-files', 'devices', 'directories', 'group-separator'],
  longFlags: ['recursive', 'dereference-recursive'],
  pathOptions: ['f', 'file', 'exclude-from'],
  recursive: ['r', 'R', 'recursive', 'dereference-recursive'],
});

// -c/--check opens every file named inside the list, which the policy never sees.
const SUMS = f({ shortValue: 'la', longValue: ['length', 'algorithm'], deniedShort: { c: 'read' }, deniedLong: { check: 'read' } });

/** `--files0-from=F` reads the names of the files to open from F (or stdin): those names are never checked. */
const FILES0: Readonly<Record<string, 'read'>> = { 'files0-from': 'read' };

/** File and text commands: name → argument policy. */
export const FILE_RULES: Record<string, ArgRule> = {
  ls: f({ shortValue: 'IwT', longValue: ['block-size', 'format', 'hide', 'ignore', 'indicator-style', 'quoting-style', 'sort', 'tabsize', 'time', 'time-style', 'width'] }),
  cat: f({}),
  head: f({ shortValue: 'nc', longValue: ['lines', 'bytes'] }),
  tail: f({ shortValue: 'ncs', longValue: ['lines', 'bytes', 'pid', 'sleep-interval', 'max-unchanged-stats'], longFlags: ['follow', 'retry'], follow: ['f', 'F', 'follow'] }),
  wc: f({ deniedLong: FILES0 }),
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: f({
    operands: 'pattern-then-paths',
    patternOptions: ['e', 'f', 'regexp', 'file', 'files', 'type-list'],
    shortValue: 'ABCEfgMmejrtT',
    longValue: ['after-context', 'before-context', 'color', 'colors', 'context', 'context-separator', 'dfa-size-limit', 'encoding', 'engine', 'field-context-separator', 'field-match-separator', 'file', 'glob', 'iglob', 'ignore-file', 'max-columns', 'max-count', 'max-depth', 'max-filesize', 'path-separator', 'pre-glob', 'regex-size-limit', 'regexp', 'replace', 'sort', 'sortr', 'threads', 'type', 'type-add', 'type-clear', 'type-not'],
    longFlags: ['files', 'type-list', 'pretty', 'no-config'],
    deniedShort: { z: 'exec' },
    deniedLong: { pre: 'exec', 'search-zip': 'exec', 'hostname-bin': 'exec' },
    pathOptions: ['f', 'file', 'ignore-file'],
    recursive: 'always',
  }),
  sort: f({
    shortValue: 'kStT',
    longValue: ['key', 'buffer-size', 'field-separator', 'temporary-directory', 'batch-size', 'parallel', 'random-source', 'sort'],
    deniedShort: { o: 'write' },
    deniedLong: { output: 'write', 'compress-program': 'exec', ...FILES0 },
    pathOptions: ['random-source'],
    // sort writes its temporary files there.
    writeOptions: ['T', 'temporary-directory'],
  }),
  uniq: f({ shortValue: 'fsw', longValue: ['skip-fields', 'skip-chars', 'check-chars'], maxOperands: 1 }),
  cut: f({ shortValue: 'bcfd', longValue: ['bytes', 'characters', 'fields', 'delimiter', 'output-delimiter'] }),
  tr: f({ operands: 'data' }),
  paste: f({ shortValue: 'd', longValue: ['delimiters'] }),
  column: f({ shortValue: 'nONlEHRTWripcos', longValue: ['table-name', 'table-order', 'table-columns', 'table-columns-limit', 'table-noextreme', 'table-hide', 'table-right', 'table-truncate', 'table-wrap', 'tree', 'tree-id', 'tree-parent', 'output-width', 'output-separator', 'separator'] }),
  diff: f({
    shortValue: 'CUWFxXSID',
    longValue: ['width', 'show-function-line', 'exclude', 'exclude-from', 'starting-file', 'ignore-matching-lines', 'ifdef', 'label', 'from-file', 'to-file', 'tabsize', 'horizon-lines', 'line-format', 'old-line-format', 'new-line-format', 'unchanged-line-format', 'old-group-format', 'new-group-format', 'changed-group-format', 'unchanged-group-format', 'palette'],
    longFlags: ['recursive'],
    pathOptions: ['X', 'exclude-from', 'from-file', 'to-file'],
    recursive: ['r', 'recursive'],
  }),
  cmp: f({ shortValue: 'in', longValue: ['ignore-initial', 'bytes'] }),
  comm: f({ longValue: ['output-delimiter'] }),
  stat: f({ shortValue: 'c', longValue: ['format', 'printf'] }),
  file: f({
    shortValue: 'mfFeP',
    longValue: ['magic-file', 'separator', 'exclude', 'exclude-quiet', 'parameter'],
    // -f LIST names files to examine: those names are never checked.
    deniedShort: { C: 'write', f: 'read' },
    deniedLong: { compile: 'write', 'files-from': 'read' },
    pathOptions: ['m', 'magic-file'],
  }),
  du: f({ shortValue: 'dBtX', longValue: ['max-depth', 'block-size', 'threshold', 'exclude', 'exclude-from', 'time-style', 'time'], deniedLong: FILES0, pathOptions: ['X', 'exclude-from'] }),
  df: f({ shortValue: 'Btx', longValue: ['block-size', 'type', 'exclude-type'] }),
  realpath: f({ longValue: ['relative-to', 'relative-base'], pathOptions: ['relative-to', 'relative-base'] }),
  readlink: f({}),
  basename: f({ operands: 'data', shortValue: 's', longValue: ['suffix'] }),
  dirname: f({ operands: 'data' }),
  sha1sum: SUMS, sha224sum: SUMS, sha256sum: SUMS, sha384sum: SUMS, sha512sum: SUMS, md5sum: SUMS, b2sum: SUMS, cksum: SUMS, sum: SUMS,
  od: f({ shortValue: 'AjNSt', longValue: ['address-radix', 'skip-bytes', 'read-bytes', 'format'] }),
  hexdump: f({ shortValue: 'efns', longValue: ['format', 'format-file', 'length', 'skip'], pathOptions: ['f', 'format-file'] }),
  strings: f({ shortValue: 'ntesT', longValue: ['bytes', 'radix', 'encoding', 'target', 'output-separator'], atFiles: true }),
  nl: f({ shortValue: 'bdfhilnsvw', longValue: ['body-numbering', 'section-delimiter', 'footer-numbering', 'header-numbering', 'line-increment', 'join-blank-lines', 'number-format', 'number-separator', 'starting-line-number', 'number-width'] }),
  tac: f({ shortValue: 's', longValue: ['separator'] }),
  rev: f({}),
  fold: f({ shortValue: 'w', longValue: ['width'] }),
  fmt: f({ shortValue: 'wpg', longValue: ['width', 'prefix', 'goal'] }),
  expand: f({ shortValue: 't', longValue: ['tabs'] }),
  unexpand: f({ shortValue: 't', longValue: ['tabs'] }),
  tree: f({ shortValue: 'LPIHT', longValue: ['charset', 'filelimit', 'timefmt', 'sort'], deniedShort: { o: 'write' }, recursive: 'always' }),
  last: f({ operands: 'data', shortValue: 'fnst', pathOptions: ['f'] }),
};
