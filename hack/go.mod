module github.com/statuspatch/statuspatch/hack

go 1.26.0

require golang.org/x/mod v0.42.0

require mvdan.cc/sh/v3 v3.14.1
