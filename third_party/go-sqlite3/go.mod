module github.com/mattn/go-sqlite3

go 1.21

retract (
 [v2.0.0+incompatible, v2.0.7+incompatible] // Accidental; no major changes or features.
)
