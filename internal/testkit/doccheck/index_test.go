package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// modulePath is the core module's path; a nested module's path is it plus the directory.
const modulePath = "github.com/hookwire/agent-sdk-go"

// pkg is the exported API of one package, read with go/parser (no type checking: a name, a
// method or a field is there or not).
type pkg struct {
	path  string
	names map[string]bool
	types map[string]*typ
}

// typ is one named type: its methods and fields (for an interface, its methods), and the types
// it embeds, whose members it promotes.
type typ struct {
	members  map[string]bool
	embedded []typeRef
}

type typeRef struct{ pkgPath, name string }

// index is every non-main package of the repository, all modules, by package name and by path.
type index struct {
	byName map[string][]*pkg
	byPath map[string]*pkg
}

// loadIndex parses every package under root, skipping testdata, hidden directories and tests.
func loadIndex(t *testing.T, root string) *index {
	t.Helper()
	ix := &index{byName: map[string][]*pkg{}, byPath: map[string]*pkg{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		importPath := modulePath
		if rel != "." {
			importPath += "/" + filepath.ToSlash(rel)
		}
		p := ix.byPath[importPath]
		if p == nil {
			p = &pkg{path: importPath, names: map[string]bool{}, types: map[string]*typ{}}
			ix.byPath[importPath] = p
			ix.byName[f.Name.Name] = append(ix.byName[f.Name.Name], p)
		}
		p.addFile(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func (p *pkg) typeNamed(name string) *typ {
	if p.types[name] == nil {
		p.types[name] = &typ{members: map[string]bool{}}
	}
	return p.types[name]
}

// addFile records f's exported declarations.
func (p *pkg) addFile(f *ast.File) {
	imports := map[string]string{} // name in this file -> import path
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = path
	}
	ref := func(e ast.Expr) (typeRef, bool) {
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		switch e := e.(type) {
		case *ast.Ident:
			return typeRef{p.path, e.Name}, true
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				return typeRef{imports[x.Name], e.Sel.Name}, true
			}
		case *ast.IndexExpr:
			if x, ok := e.X.(*ast.Ident); ok {
				return typeRef{p.path, x.Name}, true
			}
		}
		return typeRef{}, false
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				p.names[d.Name.Name] = true
				continue
			}
			if r, ok := ref(d.Recv.List[0].Type); ok {
				p.typeNamed(r.name).members[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						p.names[n.Name] = true
					}
				case *ast.TypeSpec:
					p.names[s.Name.Name] = true
					ty := p.typeNamed(s.Name.Name)
					var fields *ast.FieldList
					switch u := s.Type.(type) {
					case *ast.StructType:
						fields = u.Fields
					case *ast.InterfaceType:
						fields = u.Methods
					default:
						if r, ok := ref(u); ok && s.Assign.IsValid() {
							ty.embedded = append(ty.embedded, r) // an alias has its target's members
						}
					}
					if fields == nil {
						continue
					}
					for _, field := range fields.List {
						for _, n := range field.Names {
							ty.members[n.Name] = true
						}
						if len(field.Names) == 0 {
							if r, ok := ref(field.Type); ok {
								ty.members[r.name] = true // an embedded field is named after its type
								ty.embedded = append(ty.embedded, r)
							}
						}
					}
				}
			}
		}
	}
}

// hasMember reports whether type name of package p has member m, its own or promoted.
func (ix *index) hasMember(p *pkg, name, m string, depth int) bool {
	ty := p.types[name]
	if ty == nil || depth > 5 {
		return false
	}
	if ty.members[m] {
		return true
	}
	for _, e := range ty.embedded {
		if ep := ix.byPath[e.pkgPath]; ep != nil && ix.hasMember(ep, e.name, m, depth+1) {
			return true
		}
	}
	return false
}

// typesNamed lists the packages that declare a type of that name.
func (ix *index) typesNamed(name string) []*pkg {
	var ps []*pkg
	for _, list := range ix.byName {
		for _, p := range list {
			if _, ok := p.types[name]; ok && p.names[name] {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// repoRoot is the repository's root, three directories up from this package. Outside a git
// checkout (the core module's zip in a user's module cache, under go test all) the test skips:
// the docs name packages of modules that the zip leaves out.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skipf("not in the repository's git checkout (%v): the docs name packages of every module", err)
	}
	return root
}
