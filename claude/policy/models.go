package policy

// The models of the shell's builtins and of the common programs that read, list and change
// files. An option is written "-o" (a flag), "-o:t" (a value naming no file), "-o:r" (a file
// read), "-o:w" (a file written), "-o:x" (code or a program run: denied), "-o:d" (the directory
// the program works in); "?" after the kind: the value is only ever attached (--color=auto); "2":
// two values follow. Operands: "r" files read, "w" files written, "t" text, "tr" a pattern then
// files; "" none.

// models maps each program the analysis lets run to its model; any other program is
// RuleUnknownProgram. It is filled by init: the handlers call run, which reads it.
var models map[string]*model

// lsOpts are ls's options.
const lsOpts = "-a -A -l -h -R -r -t -S -1 -d -F -G -i -n -o -g -s -u -c -x -C -m -p -q -Q -k -L -H -U -X -v -N -Z -w:t -I:t -T:t " +
	"--all --almost-all --human-readable --recursive --reverse --color:t? --colour:t? --classify:t? --group-directories-first " +
	"--sort:t --time:t --time-style:t --full-time --format:t --width:t --directory --dereference --inode --ignore:t --hide:t " +
	"--indicator-style:t --tabsize:t --literal --quoting-style:t --block-size:t --si --numeric-uid-gid --context --file-type"

const grepOpts = "-r -R -n -i -y -l -L -c -v -w -x -E -F -G -P -o -q -s -h -H -a -I -z -Z -b -U -T -e:t -f:r -m:t -A:t -B:t -C:t -D:t -d:t " +
	"--include:t --exclude:t --exclude-dir:t --exclude-from:r --color:t? --colour:t? --line-number --ignore-case --no-ignore-case " +
	"--files-with-matches --files-without-match --count --invert-match --word-regexp --line-regexp --extended-regexp " +
	"--fixed-strings --basic-regexp --perl-regexp --only-matching --quiet --silent --no-messages --no-filename --with-filename " +
	"--text --binary-files:t --null --null-data --regexp:t --file:r --max-count:t --after-context:t --before-context:t " +
	"--context:t --recursive --dereference-recursive --label:t --line-buffered --devices:t --directories:t --byte-offset --initial-tab"

const rgOpts = "--pre:x --pre-glob:t -n -i -S -s -l -c -v -w -x -F -e:t -f:r -g:t -t:t -T:t -u -uu -uuu -. -L -A:t -B:t -C:t -m:t -d:t -N -o -r:t -H -I -U -P -z -a -q -0 -j:t -M:t -p " +
	"--glob:t --iglob:t --type:t --type-not:t --hidden --no-ignore --no-ignore-vcs --follow --max-count:t --max-depth:t --color:t " +
	"--colors:t --json --files --files-with-matches --files-without-match --count --count-matches --line-number --no-line-number " +
	"--ignore-case --smart-case --case-sensitive --word-regexp --line-regexp --fixed-strings --only-matching --replace:t " +
	"--with-filename --no-filename --no-heading --heading --vimgrep --multiline --multiline-dotall --pcre2 --search-zip --text " +
	"--sort:t --sortr:t --stats --quiet --trim --null --invert-match --context:t --after-context:t --before-context:t " +
	"--max-columns:t --max-columns-preview --threads:t --type-list --regexp:t --file:r --pretty --column --passthru --unrestricted"

const diffOpts = "-u -U:t -c -C:t -r -N -q -s -y -w -b -B -i -a -p -d -e -n -t -T -x:t -X:r -W:t -l " +
	"--brief --recursive --new-file --unified:t? --context:t? --ignore-all-space --ignore-space-change --ignore-blank-lines " +
	"--ignore-case --text --color:t? --side-by-side --exclude:t --exclude-from:r --label:t --strip-trailing-cr --minimal " +
	"--speed-large-files --suppress-common-lines --show-c-function --width:t --no-dereference --normal --expand-tabs " +
	"--initial-tab --from-file:r --to-file:r --report-identical-files --ignore-tab-expansion --ignore-trailing-space"

const sumOpts = "-c -b -t -z -w --check --tag --quiet --status --strict --warn --ignore-missing --binary --text --zero"

func init() {
	t := func(opts string) *model { return spec(opts, "t") }
	r := func(opts string) *model { return spec(opts, "r") }
	free := &model{free: true, ops: []int{kText}}
	models = map[string]*model{
		// Builtins.
		"cd":    spec("-L -P -e -@", "r").with(func(m *model) { m.handle = (*analyzer).cd }),
		"pushd": spec("-n", "r").with(func(m *model) { m.handle = (*analyzer).cd }), "popd": spec("-n", "t").with(func(m *model) { m.handle = popd }),
		"pwd": spec("-L -P", ""), "echo": free, "printf": free, "true": free, "false": free, ":": free, "test": free, "[": free,
		"exit": spec("", "t").with(func(m *model) { m.digits = true }), "return": spec("", "t").with(func(m *model) { m.digits = true }),
		"shift": t(""), "wait": t("-n -f -p:t"), "sleep": t(""), "unset": t("-f -v"), "read": t("-r -s -a:t -d:t -n:t -N:t -p:t -t:t -u:t -e -i:t"),
		"type": t("-a -f -p -P -t"), "which": t("-a -s"), "whereis": t("-b -m -s"), "hash": t("-r -t -l -d"), "unalias": t("-a"),
		"times": spec("", ""), "jobs": t("-l -p -n -r -s"), "umask": t("-p -S"), "getopts": t(""),
		"set":    spec("", "t").with(func(m *model) { m.free, m.handle = true, (*analyzer).set }),
		"shopt":  spec("-p -q -s -u -o", "t").with(func(m *model) { m.handle = shopt }),
		"eval":   free.clone().with(func(m *model) { m.handle = (*analyzer).eval }),
		"trap":   spec("-l -p", "t").with(func(m *model) { m.handle = (*analyzer).trap }),
		"source": free.clone().with(func(m *model) { m.handle = (*analyzer).source }),
		".":      free.clone().with(func(m *model) { m.handle = (*analyzer).source }),
		"exec":   wrap("-a:t -c -l"), "command": wrap("-p -v -V"), "builtin": wrap(""), "nohup": wrap(""),
		"setsid": wrap("-c -f -w"), "unbuffer": wrap(""),
		"nice":    wrap("-n:t --adjustment:t").with(func(m *model) { m.digits, m.handle = true, (*analyzer).timing }),
		"timeout": wrap("-s:t --signal:t -k:t --kill-after:t --preserve-status --foreground -v --verbose").with(func(m *model) { m.handle = (*analyzer).timing }),
		"stdbuf":  wrap("-i:t -o:t -e:t --input:t --output:t --error:t").with(func(m *model) { m.handle = (*analyzer).timing }),
		"ionice":  wrap("-c:t -n:t -t --class:t --classdata:t").with(func(m *model) { m.handle = (*analyzer).timing }),
		"env":     wrap("-i --ignore-environment -u:t --unset:t -0 --null -v --debug").with(func(m *model) { m.handle = (*analyzer).env }),
		"xargs": wrap("-0 --null -a:r --arg-file:r -d:t --delimiter:t -E:t -e:t? --eof:t? -I:t -i:t? --replace:t? -L:t -l:t? --max-lines:t? " +
			"-n:t --max-args:t -P:t --max-procs:t -s:t --max-chars:t -r --no-run-if-empty -t --verbose -x --exit -p --interactive " +
			"--process-slot-var:t").with(func(m *model) { m.handle = (*analyzer).xargs }),

		// Files changed.
		"rm":    files("-r -R -f -i -I -v -d --recursive --force --verbose --dir --one-file-system --preserve-root --interactive:t?"),
		"rmdir": files("-p -v --parents --verbose --ignore-fail-on-non-empty"), "unlink": files(""),
		"shred":    files("-n:t -s:t -u -z -f -v -x --iterations:t --size:t --remove:t? --zero --force --verbose --exact"),
		"touch":    files("-a -c -m -h -d:t -t:t -r:r --date:t --reference:r --no-create --no-dereference --time:t"),
		"mkdir":    files("-p -v -m:t --parents --mode:t --verbose"),
		"truncate": files("-s:t -r:r -c -o --size:t --reference:r --no-create --io-blocks"),
		"tee":      files("-a -i -p --append --ignore-interrupts --output-error:t?"),
		"chmod":    handled("-R -v -c -f --recursive --verbose --changes --silent --quiet --reference:r -r -w -x -X -s -t", acts((*analyzer).chmod)),
		"chown":    handled("-R -v -c -f -h --recursive --verbose --changes --silent --quiet --reference:r --from:t --dereference --no-dereference", acts((*analyzer).chmod)),
		"chgrp":    handled("-R -v -c -f -h --recursive --verbose --changes --silent --quiet --reference:r --dereference --no-dereference", acts((*analyzer).chmod)),
		"cp": handled("-a -r -R -p -f -i -n -u -v -l -s -P -d -L -H -x -b -T -t:w --archive --recursive --force --interactive --no-clobber "+
			"--update:t? --verbose --link --symbolic-link --no-dereference --dereference --preserve:t? --no-preserve:t --parents "+
			"--target-directory:w --no-target-directory --backup:t? --suffix:t -S:t --sparse:t --reflink:t? --remove-destination "+
			"--strip-trailing-slashes --attributes-only --one-file-system", acts((*analyzer).copyLike)),
		"mv": handled("-f -i -n -u -v -b -T -t:w --force --interactive --no-clobber --update:t? --verbose --backup:t? --suffix:t -S:t "+
			"--target-directory:w --no-target-directory --strip-trailing-slashes", acts((*analyzer).copyLike)),
		"install": handled("-d -D -m:t -o:t -g:t -v -p -c -b -C -T -t:w -S:t --directory --mode:t --owner:t --group:t --verbose "+
			"--preserve-timestamps --target-directory:w --compare --suffix:t --no-target-directory", acts((*analyzer).copyLike)),
		"ln": handled("-s -f -n -v -r -T -t:w -b -i -L -P -S:t --symbolic --force --no-dereference --verbose --relative "+
			"--target-directory:w --no-target-directory --backup:t? --suffix:t --logical --physical --interactive", acts((*analyzer).copyLike)),
		"rsync": handled("-a -r -v -z -h -P -l -L -p -t -g -o -D -u -n -c -q -i -x -R --delete --exclude:t --include:t --exclude-from:r "+
			"--include-from:r --progress --partial --dry-run --archive --recursive --verbose --compress --checksum --human-readable --stats "+
			"--links --copy-links --times --perms --update --itemize-changes --delete-after --delete-excluded --ignore-existing --existing "+
			"--inplace --chmod:t --filter:t -f:t --relative --one-file-system --mkpath --backup --backup-dir:w --partial-dir:w "+
			"--temp-dir:w -T:w --log-file:w --size-only --no-perms --no-owner --no-group -e:x --rsh:x --rsync-path:x", acts((*analyzer).copyLike)),
		"dd":     handled("", acts((*analyzer).dd)).with(func(m *model) { m.free = true }),
		"mktemp": handled("-d -u -q -p:t -t --tmpdir:t? --suffix:t --directory --dry-run --quiet", acts((*analyzer).mktemp)),
		"sed": handled("-n -e:t -f:x -i:t? -E -r -s -u -z -l:t --expression:t --file:x --in-place:t? --quiet --silent --regexp-extended "+
			"--null-data --separate --unbuffered --debug --posix --sandbox --line-length:t --follow-symlinks", acts((*analyzer).sed)),
		"find": handled("", acts((*analyzer).find)).with(func(m *model) { m.free = true }),

		// Programs that only read their operands.
		"ls": r(lsOpts), "dir": r(lsOpts), "cat": r("-n -b -s -A -E -T -v -e -t -u --number --number-nonblank --squeeze-blank --show-all --show-ends --show-tabs --show-nonprinting"),
		"head": r("-n:t -c:t -q -v -z --lines:t --bytes:t --quiet --silent --verbose --zero-terminated").with(digits),
		"tail": r("-n:t -c:t -q -v -z -f -F -s:t --lines:t --bytes:t --quiet --silent --verbose --follow:t? --retry --pid:t --sleep-interval:t --zero-terminated").with(digits),
		"wc":   r("-l -w -c -m -L --lines --words --bytes --chars --max-line-length --files0-from:r"),
		"grep": grep(grepOpts), "egrep": grep(grepOpts), "fgrep": grep(grepOpts), "rg": grep(rgOpts),
		"diff": r(diffOpts), "cmp": r("-b -l -s -i:t -n:t --silent --quiet --verbose --print-bytes --bytes:t --ignore-initial:t"),
		"comm": r("-1 -2 -3 -z --check-order --nocheck-order --output-delimiter:t --total --zero-terminated"),
		"stat": r("-c:t -L -f -t --format:t --printf:t --dereference --terse --file-system"),
		"file": r("-b -i -L -h -z -E --mime --mime-type --mime-encoding --brief --dereference --no-dereference"),
		"du": r("-s -h -a -c -k -m -b -x -L -P -d:t -0 --max-depth:t --summarize --human-readable --all --total --apparent-size " +
			"--exclude:t --si --block-size:t --one-file-system --null --bytes"),
		"df":       r("-h -H -T -i -k -l -a -P -t:t -x:t --human-readable --si --type:t --exclude-type:t --output:t? --total --local --all --print-type --inodes --portability"),
		"tree":     r("-a -d -f -i -l -L:t -P:t -I:t -o:w -s -h -D -F -C -n -J -X -p -u -g -Q -N -v -t -r --gitignore --noreport --dirsfirst --du --prune --filelimit:t --charset:t --matchdirs --ignore-case"),
		"realpath": r("-e -m -s -z -q -L -P --relative-to:r --relative-base:r --canonicalize-existing --canonicalize-missing --strip --no-symlinks --quiet --zero --logical --physical"),
		"readlink": r("-e -f -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero"),
		"basename": t("-a -s:t -z --multiple --suffix:t --zero"), "dirname": t("-z --zero"),
		"whoami": spec("", ""), "id": t("-u -g -G -n -r -z --user --group --groups --name --real"), "uname": spec("-a -s -n -r -v -m -p -i -o --all", ""),
		"date":     t("-u -d:t -I:t? -R -r:r --date:t --iso-8601:t? --rfc-email --rfc-3339:t --reference:r --utc --universal"),
		"hostname": spec("-f -s -i -I -d --fqdn --short --ip-address --all-ip-addresses --domain", ""),
		"uptime":   spec("-p -s --pretty --since", ""), "nproc": spec("--all --ignore:t", ""),
		"free":   spec("-h -m -g -k -b -t -w -s:t -c:t --human --total --wide --mega --giga --kilo --bytes --seconds:t --count:t", ""),
		"locale": t("-a -m -k -c"), "tput": t("-T:t -S"), "printenv": t("-0 --null"), "getent": t("-s:t"),
		"ps": t("-e -f -A -a -u:t -x -o:t -p:t -C:t -l -F -H -w -ww --pid:t --forest --sort:t --no-headers"),
		"sort": r("-n -r -u -k:t -t:t -f -b -d -g -h -M -R -V -s -z -c -C -m -o:w -T:w -S:t --output:w --temporary-directory:w " +
			"--buffer-size:t --parallel:t --key:t --field-separator:t --numeric-sort --reverse --unique --ignore-case --ignore-leading-blanks " +
			"--human-numeric-sort --version-sort --stable --check:t? --merge --random-sort --general-numeric-sort --month-sort " +
			"--zero-terminated --files0-from:r --dictionary-order --compress-program:x"),
		"uniq": spec("-c -d -u -i -f:t -s:t -w:t -z -D --count --repeated --unique --ignore-case --skip-fields:t --skip-chars:t "+
			"--check-chars:t --all-repeated:t? --group:t? --zero-terminated", "rw"),
		"cut":    r("-d:t -f:t -c:t -b:t -s -z -n --delimiter:t --fields:t --characters:t --bytes:t --complement --only-delimited --output-delimiter:t --zero-terminated"),
		"tr":     t("-d -s -c -C -t --delete --squeeze-repeats --complement --truncate-set1"),
		"column": r("-t -s:t -c:t -x -n -o:t -N:t -J -R:t --table --separator:t --output-separator:t --table-columns:t"),
		"jq": spec("-r -c -s -n -e -S -j -a -C -M -R -f:r -L:r --raw-output --compact-output --slurp --null-input --exit-status "+
			"--sort-keys --join-output --ascii-output --color-output --monochrome-output --tab --indent:t --arg:t2 --argjson:t2 "+
			"--slurpfile:r2 --rawfile:r2 --args --jsonargs --from-file:r --raw-input --seq --stream --raw-output0", "tr").with(func(m *model) {
			m.pat = []string{"-f", "--from-file"}
		}),
		"od":      r("-A:t -t:t -N:t -j:t -v -w:t? -x -c -b -d -o -a -f -i -l -s --address-radix:t --format:t --read-bytes:t --skip-bytes:t --width:t? --output-duplicates"),
		"hexdump": r("-C -c -b -d -o -x -v -n:t -s:t -e:t -f:r"), "xxd": spec("-r -p -ps -plain -i -c:t -l:t -s:t -g:t -u -b -e -o:t -a -n:t -cols:t -len:t -seek:t", "rw"),
		"strings": r("-a -n:t -t:t -e:t -f -d -w --all --bytes:t --radix:t --encoding:t --print-file-name --data"),
		"md5sum":  r(sumOpts), "sha1sum": r(sumOpts), "sha256sum": r(sumOpts), "sha512sum": r(sumOpts), "sha224sum": r(sumOpts),
		"sha384sum": r(sumOpts), "b2sum": r(sumOpts + " -l:t --length:t"), "cksum": r("-a:t --algorithm:t --untagged --tag -l:t --length:t --base64 --raw"),
		"nl": r("-b:t -n:t -w:t -s:t -v:t -i:t -h:t -f:t -d:t"), "fold": r("-w:t -s -b --width:t --spaces --bytes"),
		"fmt": r("-w:t -u -s -c -t -p:t -g:t --width:t --uniform-spacing --split-only"), "rev": r(""), "tac": r("-s:t -r -b --separator:t --regex --before"),
		"base64": r("-d -w:t -i --decode --wrap:t --ignore-garbage"), "paste": r("-d:t -s -z --delimiters:t --serial --zero-terminated"),
		"join": r("-t:t -1:t -2:t -j:t -a:t -v:t -o:t -e:t -i --ignore-case --check-order --nocheck-order --header -z"),
		"look": spec("-f -d -b -t:t", "tr"), "seq": t("-s:t -w -f:t --separator:t --equal-width --format:t").with(digits),
		"expand": r("-t:t -i --tabs:t --initial"), "unexpand": r("-t:t -a --tabs:t --all --first-only"), "yes": free,
		"numfmt": t("--to:t --from:t --suffix:t --padding:t --format:t --field:t -d:t --delimiter:t --header:t? --invalid:t --round:t"),
	}
	for _, name := range []string{"awk", "gawk", "mawk", "nawk"} {
		models[name] = handled("-f:x -v:t -F:t -e:x -i:x -l:x -E:x --field-separator:t --assign:t --file:x --source:x --include:x --load:x --exec:x", acts((*analyzer).awk)).with(func(m *model) { m.stop = true })
	}
	addDevModels()
}

// clone returns a copy of m.
func (m *model) clone() *model { c := *m; return &c }

func digits(m *model) { m.digits = true }

// wrap is the model of a program that runs its operands as a command (nice, timeout, exec, ...).
func wrap(opts string) *model {
	return spec(opts, "t").with(func(m *model) { m.stop, m.handle = true, (*analyzer).wrapper })
}

// files is the model of a fileChangers program.
func files(opts string) *model { return handled(opts, acts((*analyzer).changeFiles)) }

// handled is the model of a program whose operands a handler of its own decides.
func handled(opts string, h handler) *model {
	return spec(opts, "t").with(func(m *model) { m.handle = h })
}

// grep is the model of a program that searches files for a pattern.
func grep(opts string) *model {
	return spec(opts, "tr").with(func(m *model) { m.pat = []string{"-e", "--regexp", "-f", "--file"}; m.digits = true })
}
