module testdata/gen/goprog

go 1.19
