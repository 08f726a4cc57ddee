package policy

import (
	"strings"
)

// The models of developer tools: git, go, docker, kubectl, archives, downloads; and the programs
// that run the project's own code (RuleUnknownProgram unless under kernel confinement).

// kernelOnly are the programs that run the project's code (a Makefile, tests, package scripts, a
// build script, configuration written in a programming language): what they write is known only
// when they run, so they run only under kernel confinement.
var kernelOnly = setOf("make", "gmake", "cmake", "ninja", "meson", "bazel", "just", "task", "npm", "npx", "pnpm", "yarn", "bun",
	"deno", "cargo", "rustc", "pytest", "tox", "nox", "pip", "pip3", "poetry", "uv", "pipenv", "tsc", "eslint", "prettier", "jest",
	"vitest", "mocha", "mvn", "gradle", "gradlew", "ant", "rake", "bundle", "gem", "composer", "dotnet", "swift", "gcc", "cc", "clang",
	"g++", "c++", "ld", "java", "javac", "kotlin", "scala", "sbt", "mix", "elixir", "erl", "ghc", "stack", "cabal", "dune", "zig")

const goBuildOpts = "-o:w -race -v -x -n -a -p:t -tags:t -trimpath -mod:t -ldflags:t -gcflags:t -asmflags:t -buildvcs:t -cover " +
	"-coverpkg:t -covermode:t -modfile:r -overlay:r -pgo:r -buildmode:t -compiler:t -installsuffix:t -linkshared -msan -asan -work " +
	"-json -C:d -modcacherw -toolexec:x -exec:x -gccgoflags:t"

// outsideKernel are programs that run commands outside the session's process tree (a daemon,
// another host, the user's service manager), where kernel confinement does not reach: denied in
// every mode unless modelled (docker's and kubectl's models allow their read-only uses).
var outsideKernel = setOf("podman", "nerdctl", "ssh", "systemd-run", "at", "batch", "crontab", "tmux", "screen", "dbus-send",
	"busctl", "gdbus", "nsenter", "flatpak-spawn", "machinectl", "lxc", "incus", "docker-compose", "kubectl-exec")

func addDevModels() {
	models["git"] = handled("--config-env:x -C:t -c:t --git-dir:t --work-tree:t --namespace:t --no-pager -p --paginate -P --bare --no-replace-objects "+
		"--literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --exec-path:t? --html-path "+
		"--man-path --info-path --version --help", acts((*analyzer).git)).with(func(m *model) { m.stop = true })
	goSub := func(opts, ops string) *model {
		return spec(goBuildOpts+" "+opts, ops).with(func(m *model) { m.check, m.golike = goCheck, true })
	}
	models["go"] = spec("-C:d", "t").with(func(m *model) {
		m.golike = true
		m.subs = map[string]*model{
			"build": goSub("", "r"), "vet": goSub("-vettool:x -printfuncs:t", "r"), "list": goSub("-m -f:t -e -u -versions -deps -test -find -export -compiled -retracted -reuse:r", "t"),
			"fmt": spec("-n -x -mod:t", "w"), "env": spec("-json -changed", "t"), "version": spec("-m -v -json", "r"), "doc": spec("-all -c -cmd -short -src -u", "t"),
			"get": spec("-u:t? -t -x -v -d -tool", "t"), "clean": spec("-i -n -r -x", "t"), "help": spec("", "t"),
			"mod": spec("", "t").with(func(m *model) {
				m.subs = map[string]*model{"tidy": spec("-v -e -go:t -compat:t -x -diff", ""), "download": spec("-x -json -reuse:r", "t"),
					"init": spec("", "t"), "why": spec("-m -vendor", "t"), "graph": spec("-go:t -x", ""), "verify": spec("", ""),
					"vendor": spec("-v -e -o:w", ""), "edit": spec("-json -print -fmt -require:t -droprequire:t -replace:t -dropreplace:t "+
						"-go:t -module:t -exclude:t -dropexclude:t -retract:t -dropretract:t -toolchain:t -godebug:t -dropgodebug:t", "w")}
			}),
			"work": spec("", "t").with(func(m *model) {
				m.subs = map[string]*model{"init": spec("", "r"), "use": spec("-r", "r"), "sync": spec("", "")}
			}),
		}
		for _, k := range []string{"test", "run", "generate", "install", "tool", "fix"} {
			m.subs[k] = &model{kernel: true}
		}
		for _, sub := range m.subs {
			sub.golike = true
		}
	})
	models["gofmt"] = handled("-l -d -s -e -w -r:t", gofmt).with(func(m *model) { m.golike = true })
	models["docker"] = spec("", "t").with(func(m *model) {
		m.strict = true
		ro := func(opts string) *model { return spec(opts, "t") }
		m.subs = map[string]*model{
			"ps":     ro("-a -q -s -l -n:t -f:t --all --quiet --format:t --filter:t --last:t --latest --no-trunc --size"),
			"images": ro("-a -q --all --quiet --format:t --filter:t -f:t --no-trunc --digests"), "version": ro("-f:t --format:t"),
			"info": ro("-f:t --format:t"), "inspect": ro("-f:t --format:t --type:t -s --size"), "pull": ro("-q -a --quiet --platform:t --all-tags"),
			"logs": ro("-f -t -n:t --follow --tail:t --since:t --until:t --timestamps --details"), "stop": ro("-t:t --time:t"),
			"rm": ro("-f -v --force --volumes"), "rmi": ro("-f --force"), "kill": ro("-s:t --signal:t"),
			"exec": ro("-i -t -d -e:t -w:t -u:t --interactive --tty --detach --env:t --workdir:t --user:t").with(func(m *model) { m.stop = true }),
			"run": spec("-i -t -d -e:t -w:t -u:t -p:t -l:t -m:t -v:t --rm --interactive --tty --detach --env:t --env-file:r --workdir:t --user:t "+
				"--publish:t --label:t --memory:t --cpus:t --name:t --entrypoint:t --platform:t --init --pull:t --hostname:t --volume:t "+
				"--read-only --network:t", "t").with(func(m *model) { m.stop, m.check = true, dockerVolumes }),
			"build": spec("-t:t -f:r -q -o:w --tag:t --file:r --build-arg:t --target:t --no-cache --quiet --platform:t --progress:t --pull --output:w", "r"),
		}
	})
	models["kubectl"] = spec("--context:t --kubeconfig:r -n:t --namespace:t", "t").with(func(m *model) {
		m.strict = true
		ro := spec("-n:t -o:t -l:t -A -w -c:t -p -f:r --namespace:t --output:t --selector:t --all-namespaces --watch --container:t --tail:t "+
			"--since:t --previous --show-labels --sort-by:t --field-selector:t --context:t --no-headers --recursive", "t")
		m.subs = map[string]*model{"get": ro, "describe": ro, "logs": ro, "explain": ro, "version": ro, "api-resources": ro, "top": ro, "cluster-info": ro}
	})
	models["tar"] = spec("-c -x -t -z -j -J -v -f:t -C:t -p -h -O -k -m -a -r -u -W -H:t -T:r -X:r --create --extract --get --list --gzip "+
		"--gunzip --bzip2 --xz --zstd --verbose --file:t --directory:t --exclude:t --exclude-from:r --files-from:r --strip-components:t "+
		"--to-stdout --keep-old-files --skip-old-files --overwrite --no-same-owner --no-same-permissions --same-permissions --wildcards "+
		"--anchored --transform:t --xform:t --null --auto-compress --totals --sort:t --mtime:t --owner:t --group:t --numeric-owner "+
		"--one-file-system --exclude-vcs --exclude-vcs-ignores --append --update --verify --mode:t --format:t --dereference "+
		"--no-recursion --recursion --preserve-permissions --to-command:x --checkpoint-action:x -I:x --use-compress-program:x -F:x "+
		"--info-script:x --new-volume-script:x --rsh-command:x --rmt-command:x", "t").with(func(m *model) { m.prep, m.handle = tarOldStyle, (*analyzer).tar })
	models["unzip"] = spec("-o -q -qq -n -j -l -t -v -u -f -a -L -C -Z -d:t -x:t -P:t", "rt").with(func(m *model) { m.handle = (*analyzer).unzip })
	models["zip"] = spec("-r -q -9 -0 -1 -j -u -x:t -i:t -y -D -X -v -m -g -f", "wr")
	for _, z := range []string{"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd"} {
		models[z] = spec("-d -k -f -c -v -q -r -t -l -n -N -1 -2 -3 -4 -5 -6 -7 -8 -9 --keep --force --stdout --decompress --verbose "+
			"--quiet --best --fast --test --list --recursive", "w")
	}
	models["zcat"] = spec("-f -v -q", "r")
	models["curl"] = handled("-s -S -L -f -I -i -v -k -o:w -O -J -C:t -d:t -H:t -X:t -u:t -A:t -e:t -b:t -c:w -D:w -T:r -F:t -x:t -m:t -w:t -g -G -n "+
		"-q -# -N -4 -6 -r:t -z:t --silent --show-error --location --fail --fail-with-body --head --include --verbose --insecure --output:w "+
		"--remote-name --remote-name-all --remote-header-name --output-dir:d --create-dirs --continue-at:t --data:t --data-raw:t "+
		"--data-binary:t --data-urlencode:t --json:t --header:t --request:t --user:t --user-agent:t --referer:t --cookie:t --cookie-jar:w "+
		"--dump-header:w --upload-file:r --form:t --proxy:t --max-time:t --connect-timeout:t --retry:t --retry-delay:t --retry-max-time:t "+
		"--write-out:t --compressed --http1.1 --http2 --globoff --get --netrc --netrc-file:r --cacert:r --cert:r --key:r --trace:w "+
		"--trace-ascii:w --stderr:w --libcurl:w --limit-rate:t --time-cond:t --range:t --progress-bar --no-progress-meter --no-buffer "+
		"--ipv4 --ipv6 --resolve:t --url:t --fail-early --max-filesize:t --tlsv1.2 --tlsv1.3 -K:x --config:x", acts((*analyzer).download))
	models["wget"] = handled("-q -O:w -P:d -o:w -a:w -c -N -r -l:t -np -nd -nH -nc -nv -k -p -m -S -T:t -t:t -U:t -i:r --quiet "+
		"--output-document:w --directory-prefix:d --output-file:w --append-output:w --continue --timestamping --recursive --level:t "+
		"--no-parent --no-directories --no-host-directories --no-clobber --tries:t --timeout:t --header:t --user-agent:t --user:t "+
		"--password:t --post-data:t --post-file:r --method:t --body-data:t --body-file:r --no-check-certificate --spider "+
		"--server-response --input-file:r --show-progress --progress:t --limit-rate:t --no-verbose -e:x --execute:x --config:x", acts((*analyzer).download))
	models["watch"] = spec("-n:t -d -t -g -e -b -c -x -p -w --interval:t --differences:t? --no-title --chgexit --errexit --beep --color --exec --precise --no-wrap", "t").with(func(m *model) {
		m.stop, m.handle = true, (*analyzer).watch
	})
	for _, name := range shells {
		models[name] = &model{free: true, ops: []int{kText}, handle: (*analyzer).shell}
	}
}

// goCheck denies the linker flags that make go run another program (-ldflags=-extld=...).
func goCheck(a *analyzer, c invocation, m margs) {
	for _, v := range m.opts["-ldflags"] {
		if !v.known || strings.Contains(v.val, "extld") || strings.Contains(v.val, "linkmode") {
			a.deny(deny(RuleNestedCode, "go %s -ldflags %s can make the linker run another program; build without it", c.base, v.val))
		}
	}
}

// gofmt writes its operands with -w, and reads them otherwise.
func gofmt(a *analyzer, c invocation) state {
	p, _, _ := a.parseModel(models["gofmt"], c.base, c.args)
	for _, x := range p.ops {
		if p.has("-w") {
			a.writePath(x, c.cwd, "gofmt -w")
		} else {
			a.readPath(x, c.cwd, "gofmt")
		}
	}
	return c.st
}

// dockerVolumes checks docker run's bind mounts as writes of the host paths (the container may
// write them).
func dockerVolumes(a *analyzer, c invocation, m margs) {
	for _, v := range append(m.opts["-v"], m.opts["--volume"]...) {
		if !v.known {
			a.deny(deny(RuleUnresolvable, "docker run -v %s is known only when the command runs", v.val))
			return
		}
		host, _, _ := strings.Cut(v.val, ":")
		if strings.HasPrefix(host, "/") || strings.HasPrefix(host, ".") || strings.HasPrefix(host, "~") {
			a.writePath(arg{val: host, known: true}, c.cwd, "docker run -v (the container may write what it mounts)")
		}
	}
}

// tarOldStyle reads tar's first argument without a dash ("czf") as options ("-czf").
func tarOldStyle(args []arg) []arg {
	if len(args) > 0 && args[0].known && args[0].val != "" && !strings.HasPrefix(args[0].val, "-") {
		out := append([]arg{{val: "-" + args[0].val, known: true}}, args[1:]...)
		return out
	}
	return args
}

// tar: creating writes the archive and reads the operands; extracting reads the archive and
// writes below its directory, where links from the archive may point anywhere (the directory is
// tainted for the rest of the command).
func (a *analyzer) tar(c invocation) state {
	p, _, _ := a.parseModel(models["tar"], c.base, c.args)
	dir := arg{val: ".", known: true}
	if d := append(p.opts["-C"], p.opts["--directory"]...); len(d) > 0 {
		dir = d[len(d)-1]
	}
	archive := append(p.opts["-f"], p.opts["--file"]...)
	switch {
	case p.has("-c", "--create", "-r", "--append", "-u", "--update"):
		for _, f := range archive {
			a.writePath(f, c.cwd, "tar (the archive)")
		}
		for _, x := range p.ops {
			a.readPath(x, c.cwd, "tar")
		}
	case p.has("-x", "--extract", "--get"):
		for _, f := range archive {
			a.readPath(f, c.cwd, "tar (the archive)")
		}
		if !p.has("-O", "--to-stdout") {
			a.writePath(dir, c.cwd, "tar -x (where it extracts)")
			a.taint(dir, c.cwd)
		}
	default:
		for _, f := range archive {
			a.readPath(f, c.cwd, "tar (the archive)")
		}
	}
	return c.st
}

// unzip reads its archive and writes below -d's directory (or the current one), which links
// from the archive may leave (the directory is tainted for the rest of the command).
func (a *analyzer) unzip(c invocation) state {
	p, _, _ := a.parseModel(models["unzip"], c.base, c.args)
	if len(p.ops) > 0 {
		a.readPath(p.ops[0], c.cwd, "unzip (the archive)")
	}
	if p.has("-l", "-t", "-v", "-Z") {
		return c.st
	}
	dir := arg{val: ".", known: true}
	if d := p.opts["-d"]; len(d) > 0 {
		dir = d[len(d)-1]
	}
	a.writePath(dir, c.cwd, "unzip (where it extracts)")
	a.taint(dir, c.cwd)
	return c.st
}

// watch runs its operands with sh -c (or, with -x, as a command).
func (a *analyzer) watch(c invocation) state {
	p, _, _ := a.parseModel(models["watch"], c.base, c.args)
	if p.has("-x", "--exec") {
		return a.run(p.ops, c.cwd, c.st, false, nil)
	}
	code, ok := joinKnown(p.ops)
	if !ok {
		a.deny(deny(RuleUnresolvable, "watch runs a command known only when it runs; name it literally"))
		return c.st
	}
	return a.nested(func() state { return a.script(code, c.st.clone(), false) }, c.st)
}
