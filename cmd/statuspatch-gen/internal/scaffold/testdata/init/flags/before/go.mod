module example.com/ops

go 1.24.0
