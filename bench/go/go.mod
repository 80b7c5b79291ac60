module jetjson/bench/go

go 1.24
