package source

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"go.yaml.in/yaml/v3"
)

// TestFieldsAreFrontMatter: the table of fields and FrontMatter are
// checked against each other: each field of the struct (but those tagged
// frontmatter:"-") is filled by exactly one entry, each entry fills a
// field of the struct, and each says what its value must be and where
// it is used. A field added to FrontMatter without its entry fails here.
func TestFieldsAreFrontMatter(t *testing.T) {
	st := reflect.TypeFor[FrontMatter]()
	filled := map[string]string{} // Go field → entry
	names := map[string]bool{}
	for _, f := range Fields() {
		if names[f.Name] {
			t.Errorf("field %q is in the table twice", f.Name)
		}
		names[f.Name] = true
		if prev, dup := filled[f.Go]; dup {
			t.Errorf("%s is filled by both %q and %q", f.Go, prev, f.Name)
		}
		filled[f.Go] = f.Name
		if _, ok := st.FieldByName(f.Go); !ok {
			t.Errorf("field %q fills FrontMatter.%s, which does not exist", f.Name, f.Go)
		}
		if f.Value.Want == "" || f.Value.read == nil || f.Use == "" || f.Example == "" {
			t.Errorf("field %q does not say what it must be, where it is used or what it looks like: %+v", f.Name, f)
		}
	}
	for i := range st.NumField() {
		sf := st.Field(i)
		if sf.Tag.Get("frontmatter") == "-" {
			continue
		}
		if _, ok := filled[sf.Name]; !ok {
			t.Errorf("FrontMatter.%s has no entry in the table of fields (fields.go)", sf.Name)
		}
	}
}

// exampleFrontMatter is the front matter setting the field f to its
// example, in YAML or, converted from it, TOML or JSON.
func exampleFrontMatter(t *testing.T, f Field, format string) string {
	t.Helper()
	if format == "yaml" {
		return "---\n" + f.Name + ": " + f.Example + "\n---\nbody\n"
	}
	var v any
	if err := yaml.Unmarshal([]byte(f.Example), &v); err != nil {
		t.Fatalf("%s: example %s: %v", f.Name, f.Example, err)
	}
	if format == "json" {
		b, err := json.MarshalIndent(map[string]any{f.Name: v}, "", "  ")
		if err != nil {
			t.Fatalf("%s: example %s as JSON: %v", f.Name, f.Example, err)
		}
		return string(b) + "\nbody\n"
	}
	b, err := toml.Marshal(map[string]any{f.Name: v})
	if err != nil {
		t.Fatalf("%s: example %s as TOML: %v", f.Name, f.Example, err)
	}
	return "+++\n" + string(b) + "+++\nbody\n"
}

// TestEachFieldIsRead sets each field of the table in turn, to its
// example, in YAML, TOML and JSON: it is read without a message into its own
// FrontMatter field and no other, with its position recorded.
func TestEachFieldIsRead(t *testing.T) {
	for _, f := range Fields() {
		for _, format := range []string{"yaml", "toml", "json"} {
			t.Run(f.Name+"/"+format, func(t *testing.T) {
				src := exampleFrontMatter(t, f, format)
				pg, d := ParsePage("p.md", []byte(src))
				if len(d) > 0 || pg == nil {
					t.Fatalf("%s:\n%s", src, d)
				}
				fm := reflect.ValueOf(pg.Meta)
				for i := range fm.NumField() {
					name := fm.Type().Field(i).Name
					if name == "Pos" {
						continue
					}
					if set := !fm.Field(i).IsZero(); set != (name == f.Go) {
						t.Errorf("%s: FrontMatter.%s set: %v", src, name, set)
					}
				}
				pos, ok := pg.Meta.Pos[f.Name]
				if !ok {
					t.Fatalf("no position recorded for %q", f.Name)
				}
				if got := strings.TrimLeft(src[pos.Key:], `["`); !strings.HasPrefix(got, f.Name) {
					t.Errorf("key recorded at %q", src[pos.Key:])
				}
				switch table := src[pos.Key] == '['; {
				case table && pos.Off != pos.Key:
					t.Errorf("a [table]'s value recorded at %q, not at its header", src[pos.Off:])
				case !table && (pos.Off <= pos.Key || src[pos.Off-1] != ' '):
					t.Errorf("value recorded at %q", src[pos.Off:])
				}
			})
		}
	}
}

// TestEachFieldIsChecked gives each field of the table a value of the
// wrong type, in YAML, TOML and JSON: the message says what it must be,
// at the value.
func TestEachFieldIsChecked(t *testing.T) {
	for _, f := range Fields() {
		wrong := map[string]string{"yaml": "{a: 1}", "toml": "{a = 1}", "json": `{"a": 1}`}
		if f.Go == "Params" {
			wrong = map[string]string{"yaml": "3", "toml": "3", "json": "3"}
		}
		for _, format := range []string{"yaml", "toml", "json"} {
			t.Run(f.Name+"/"+format, func(t *testing.T) {
				name, sep, open, end := f.Name, ": ", "---", "---"
				switch format {
				case "toml":
					sep, open, end = " = ", "+++", "+++"
				case "json":
					name, open, end = `"`+f.Name+`"`, "{", "}"
				}
				src := open + "\n\n" + name + sep + wrong[format] + "\n" + end + "\n"
				_, d := ParsePage("p.md", []byte(src))
				want := fmt.Sprintf("p.md:3:%d: front matter field %q must be %s, got ", len(name)+len(sep)+1, f.Name, f.Value.Want)
				if len(d) != 1 || !strings.HasPrefix(d[0].Header(), want) {
					t.Errorf("%s:\ngot  %q\nwant %q…", src, headers(d), want)
				}
			})
		}
	}
}

// TestEachFieldIsSuggested: a field written with its last letter missing
// is warned about with the table's name as "did you mean".
func TestEachFieldIsSuggested(t *testing.T) {
	for _, f := range Fields() {
		typo := f.Name[:len(f.Name)-1]
		_, d := ParsePage("p.md", []byte("---\n"+typo+": x\n---\n"))
		want := fmt.Sprintf("p.md:2:1: warning: front matter field %q is not known: did you mean %q? it is ignored", typo, f.Name)
		if len(d) != 1 || d[0].Header() != want {
			t.Errorf("got  %q\nwant %q", headers(d), want)
		}
	}
}

// TestFill: Fill copies into the templates' data each field that names
// its Data there, and no other; a table naming a field the data lacks is
// a mistake of the program, and panics.
func TestFill(t *testing.T) {
	var src strings.Builder
	src.WriteString("---\n")
	fmType := reflect.TypeFor[FrontMatter]()
	var data []reflect.StructField // the table's Data fields, and Slug, which is none
	for _, f := range Fields() {
		src.WriteString(f.Name + ": " + f.Example + "\n")
		if f.Data != "" {
			sf, _ := fmType.FieldByName(f.Go)
			data = append(data, reflect.StructField{Name: f.Data, Type: sf.Type})
		}
	}
	src.WriteString("---\n")
	data = append(data, reflect.StructField{Name: "Slug", Type: reflect.TypeFor[string]()})
	pg, d := ParsePage("p.md", []byte(src.String()))
	if len(d) > 0 {
		t.Fatal(d)
	}
	dst := reflect.New(reflect.StructOf(data))
	pg.Meta.Fill(dst.Interface())
	from := reflect.ValueOf(pg.Meta)
	for _, f := range Fields() {
		if f.Data == "" {
			continue
		}
		if got, want := dst.Elem().FieldByName(f.Data), from.FieldByName(f.Go); got.IsZero() || !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Errorf("%s: filled %v, want %v", f.Data, got, want)
		}
	}
	if slug := dst.Elem().FieldByName("Slug").String(); slug != "" {
		t.Errorf("Slug, which the table gives no template, filled with %q", slug)
	}
	defer func() {
		if recover() == nil {
			t.Error("Fill into a struct without the table's Data fields did not panic")
		}
	}()
	var lacking struct{ Title string }
	pg.Meta.Fill(&lacking)
}
