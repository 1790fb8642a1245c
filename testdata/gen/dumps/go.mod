module testdata/gen/dumps

go 1.19
