module testdata/gen/httpserver

go 1.19
