package policy

import (
	"slices"
	"strings"
)

// parsed is a command's arguments split into flags and operands.
type parsed struct {
	ops   []arg
	flags map[string][]arg // "-r" for short flags, "--recursive" for long ones; values in order
}

func (p parsed) has(names ...string) bool {
	return slices.ContainsFunc(names, func(n string) bool { _, ok := p.flags[n]; return ok })
}

func (p parsed) values(names ...string) []arg {
	var out []arg
	for _, n := range names {
		out = append(out, p.flags[n]...)
	}
	return out
}

// parseFlags splits args (after the program) the GNU way: "-abc" sets -a -b -c; a short flag in
// shortVal takes the rest of its cluster or the next argument as its value; "--name=value", or
// "--name value" for a name in longVal; "--" ends the flags. With stop, the first operand ends
// them too (xargs, sh). A flag the table does not know is taken as one without a value, which can
// only make more operands to check.
func parseFlags(args []arg, shortVal string, longVal []string, stop bool) parsed {
	p := parsed{flags: map[string][]arg{}}
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case !x.known || x.val == "-" || !strings.HasPrefix(x.val, "-"):
			p.ops = append(p.ops, x)
			if stop {
				p.ops = append(p.ops, args[i+1:]...)
				return p
			}
		case x.val == "--":
			p.ops = append(p.ops, args[i+1:]...)
			return p
		case strings.HasPrefix(x.val, "--"):
			name, val, hasVal := strings.Cut(x.val, "=")
			switch {
			case hasVal:
				p.flags[name] = append(p.flags[name], arg{val: val, known: true})
			case slices.Contains(longVal, name) && i+1 < len(args):
				i++
				p.flags[name] = append(p.flags[name], args[i])
			default:
				p.flags[name] = append(p.flags[name], arg{})
			}
		default:
			cluster := x.val[1:]
		cluster:
			for j := 0; j < len(cluster); j++ {
				name := "-" + cluster[j:j+1]
				if strings.IndexByte(shortVal, cluster[j]) >= 0 {
					switch {
					case j+1 < len(cluster):
						p.flags[name] = append(p.flags[name], arg{val: cluster[j+1:], known: true})
					case i+1 < len(args):
						i++
						p.flags[name] = append(p.flags[name], args[i])
					default:
						p.flags[name] = append(p.flags[name], arg{})
					}
					break cluster
				}
				p.flags[name] = append(p.flags[name], arg{})
			}
		}
	}
	return p
}
