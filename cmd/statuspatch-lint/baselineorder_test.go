package main

import "testing"

// Two findings at one place, reported by a package and by its test
// variant (two keys of the -json output's map), come in message order on
// every run: the sort by position alone left them in the map's order.
func TestJSONFindingsAtOnePlaceByMessage(t *testing.T) {
	out := []byte(`{
	"example.com/a": {"statuspatch": [{"posn": "/src/a/a.go:3:2", "message": "b: kept"}]},
	"example.com/a [example.com/a.test]": {"statuspatch": [{"posn": "/src/a/a.go:3:2", "message": "a: kept"}]}
}`)
	for range 50 {
		got, err := jsonFindings(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].text != "/src/a/a.go:3:2: a: kept" || got[1].text != "/src/a/a.go:3:2: b: kept" {
			t.Fatalf("findings %+v, want a's then b's", got)
		}
	}
}
