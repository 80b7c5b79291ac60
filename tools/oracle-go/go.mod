module jetjson/oracle-go

go 1.22
