package v2

import (
	"reflect"
)

// optionGroup is WithOptions' value: its options count one by one (given twice, see Option).
type optionGroup []Option

func (g optionGroup) apply(o *config) {
	for _, opt := range g {
		if opt != nil {
			opt.apply(o)
		}
	}
}

// defaultsGroup is WithDefaults' value: options that a later one may replace.
type defaultsGroup []Option

func (g defaultsGroup) apply(o *config) { optionGroup(g).apply(o) }

// WithDefaults groups opts as defaults: each is applied in order, like WithOptions, but a later
// option may replace what it sets without the "given twice" error (see Option). It is for a
// package that hands out base options its caller may change, as claudetest.Env does with the
// CLI's path, the working directory and the logger. Default: none.
func WithDefaults(opts ...Option) Option { return defaultsGroup(opts) }

// givenOption is one option as given: flattened out of its groups, and whether it is a default.
type givenOption struct {
	opt      Option
	fallback bool
}

// flattenOptions lists opts with their groups' members in their place, nil ones left out.
func flattenOptions(opts []Option, fallback bool, out []givenOption) []givenOption {
	for _, opt := range opts {
		switch g := opt.(type) {
		case nil:
		case optionGroup:
			out = flattenOptions(g, fallback, out)
		case defaultsGroup:
			out = flattenOptions(g, true, out)
		default:
			out = append(out, givenOption{opt, fallback})
		}
	}
	return out
}

// optionName is the With* function that made opt ("WithCwd").
func optionName(opt Option) string {
	if n, ok := opt.(namedOption); ok && n.name != "" {
		return n.name
	}
	return "an option"
}

var errorType = reflect.TypeFor[error]()

// setBy records, for each single-valued field of config, the first option given that set it and
// the value it set.
type setBy struct {
	name  string
	value reflect.Value
}

// givenTwice returns the error of Option's rule for opts (nil when they keep it): a
// single-valued setting that two options (not defaults) set to different values. An option's
// settings are what it changes when applied alone to the defaults; a map adds keys (the checks of
// validate see a key given twice), and a slice is single-valued when applying the option twice
// leaves it as once (it replaces, as WithBaseEnv, not adds, as WithAllowedTools).
func givenTwice(opts []givenOption) error {
	base := defaultConfig()
	baseV := reflect.ValueOf(&base).Elem()
	first := map[int]setBy{}
	for _, g := range opts {
		if g.fallback {
			continue
		}
		once, twice := defaultConfig(), defaultConfig()
		g.opt.apply(&once)
		g.opt.apply(&twice)
		g.opt.apply(&twice)
		onceV, twiceV := reflect.ValueOf(&once).Elem(), reflect.ValueOf(&twice).Elem()
		for i := range onceV.NumField() {
			v := onceV.Field(i)
			if sameValue(v, baseV.Field(i), 0) {
				continue // not set (or set to its default)
			}
			if k := v.Kind(); k == reflect.Map || k == reflect.Slice && !sameValue(v, twiceV.Field(i), 0) || v.Type() == errorType {
				continue // it adds (a map adds keys), or it is an option's own error (validate reports it)
			}
			name := optionName(g.opt)
			prev, seen := first[i]
			switch {
			case !seen:
				first[i] = setBy{name, v}
			case !sameValue(prev.value, v, 0):
				if prev.name == name {
					return optionErr(name, "given twice with different values: give it once (the SDK does not pick one; see WithDefaults for options a later one may replace)")
				}
				return optionErr(prev.name+"/"+name, "both set the same setting, to different values: give one of them")
			}
		}
	}
	return nil
}

// sameValue reports whether a and b hold the same value, as reflect.DeepEqual would, also for the
// unexported fields of config (which DeepEqual cannot be handed): pointers and interfaces are
// followed, funcs are the same only when both are nil (two callbacks are two settings), and
// values nested deeper than a few levels count as different.
func sameValue(a, b reflect.Value, depth int) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() || depth > 6 {
		return false
	}
	switch a.Kind() {
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		if a.Kind() == reflect.Pointer && a.Pointer() == b.Pointer() {
			return true
		}
		return sameValue(a.Elem(), b.Elem(), depth+1)
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Struct:
		return sameParts(a, b, depth)
	case reflect.Chan, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	}
	return a.Equal(b)
}

// sameParts is sameValue for the kinds made of parts: slices, arrays, maps and structs.
func sameParts(a, b reflect.Value, depth int) bool {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !sameValue(it.Value(), bv, depth+1) {
				return false
			}
		}
		return true
	}
	if a.Len() != b.Len() || a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
		return false
	}
	for i := range a.Len() {
		if !sameValue(a.Index(i), b.Index(i), depth+1) {
			return false
		}
	}
	return true
}
